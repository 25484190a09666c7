// Proves: a large block's span that the program maps over after freeing it
// (mmap MAP_FIXED, as AddressSanitizer's large_allocator_unpoisons_on_free
// does) or unmaps becomes the program's: mdebug never protects, unmaps or
// hands out those pages again, whether the block was still in the
// quarantine (defaults), in the cache of freed spans (without free_track), or
// larger than the quarantine keeps (its pages given back); and with checked
// accesses, the program's accesses to its mapping are not reported. After
// pushing the block out of the quarantine and allocating many large blocks,
// the program's mapping still holds what it wrote and no new block overlaps
// it. The clean run frees without mapping over.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %t fixed 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS="none verify_pointers fill_on_free=64 track_mmap leak_check" %t fixed 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: %t fixed_big 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: %t unmap 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS="none verify_pointers fill_on_free=64 track_mmap leak_check" %t unmap 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: %mdebug_clang -fmdebug-check-access -g -O1 %s -o %t.checked
// RUN: %t.checked fixed 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS="none verify_pointers fill_on_free=64 track_mmap leak_check" %t.checked fixed 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SMALL (200 * 1000)
#define BIG (4 << 20)

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "clean";
  size_t size = !strcmp(m, "fixed_big") ? BIG : SMALL;
  long page = sysconf(_SC_PAGESIZE);
  char *p;
  if (posix_memalign((void **)&p, page, size))
    return 1;
  memset(p, 1, size);
  free(p);
  char *q = p;
  size_t len = (size / page) * page;
  if (!strcmp(m, "fixed") || !strcmp(m, "fixed_big")) {
    q = mmap(p, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
             -1, 0);
    if (q != p)
      return 2;
    memset(q, 42, len);
  } else if (!strcmp(m, "unmap")) {
    if (munmap(p, len))
      return 3;
    /* Someone maps there: the program itself, at the same place. */
    q = mmap(p, len, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (q != p)
      return 4;
    memset(q, 42, len);
  }
  /* Out of the quarantine, through the cache, and many new blocks. */
  int overlap = 0;
  char *keep[64];
  for (int i = 0; i < 600; i++) {
    char *volatile r = malloc(i % 2 ? SMALL : BIG);
    free(r);
  }
  for (int i = 0; i < 64; i++) {
    keep[i] = malloc(i % 2 ? SMALL : BIG);
    size_t n = i % 2 ? SMALL : BIG;
    if (q != p || strcmp(m, "clean"))
      overlap += keep[i] < q + len && keep[i] + n > q;
    memset(keep[i], 7, n);
  }
  if (strcmp(m, "clean")) {
    size_t wrong = 0;
    for (size_t k = 0; k < len; k++)
      wrong += q[k] != 42;
    printf("the program's mapping: %zu wrong bytes, %d blocks over it\n", wrong,
           overlap);
  }
  for (int i = 0; i < 64; i++)
    free(keep[i]);
  if (strcmp(m, "clean"))
    munmap(q, len);
  return 0;
}
// CHECK: the program's mapping: 0 wrong bytes, 0 blocks over it
// CLEAN-NOT: mdebug
