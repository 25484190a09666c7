/* sort.c - the runtime's one sort: an in-place heap sort of fixed-size
 * records (no recursion, no extra memory), for lists of millions of leaks
 * or heap-dump records built in mmap'ed memory. Never allocates.
 */
#include "base.h"
#include "sort.h"

static inline void swap(unsigned char *a, unsigned char *b, size_t size) {
  if (size % 8 == 0) { /* every record the runtime sorts: whole words */
    for (size_t i = 0; i < size; i += 8) {
      uint64_t t, u;
      __builtin_memcpy(&t, a + i, 8);
      __builtin_memcpy(&u, b + i, 8);
      __builtin_memcpy(a + i, &u, 8);
      __builtin_memcpy(b + i, &t, 8);
    }
    return;
  }
  for (size_t i = 0; i < size; i++) {
    unsigned char t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}

void md_sort(void *base, size_t n, size_t size,
             bool (*before)(const void *a, const void *b)) {
  unsigned char *v = base;
  for (size_t start = n / 2; n > 1;) {
    size_t root;
    if (start > 0) {
      root = --start;
    } else {
      swap(v, v + --n * size, size);
      root = 0;
    }
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
      if (child + 1 < n && before(v + child * size, v + (child + 1) * size))
        child++;
      if (!before(v + root * size, v + child * size))
        break;
      swap(v + root * size, v + child * size, size);
    }
  }
}
