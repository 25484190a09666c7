// Proves: a page-guarded block is a block like any other: it ends against
// an inaccessible page (starts after one with page_guard_front), whatever
// its size, alignment or kind (calloc zeroes it, realloc moves its bytes,
// memalign aligns it, a large block gets it too); malloc_usable_size knows
// its size; a free of a pointer inside it, a double free and a leak of it
// are reported with its sites, and its pages are inaccessible once freed.
// RUN: %mdebug_clang -fno-mdebug-check-lib-calls -g -O0 %s -o %t
// RUN: env MDEBUG_OPTIONS=page_guard %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,REAR
// RUN: env "MDEBUG_OPTIONS=page_guard page_guard_front" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,FRONT
// Without page_guard none is guarded; the run without the bugs prints
// nothing.
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=OFF
// RUN: env MDEBUG_OPTIONS=page_guard %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int pipe_fd[2];

/* Can the byte at p be read? (write() says EFAULT when it cannot.) */
static int readable(const void *p) {
  char c;
  if (write(pipe_fd[1], p, 1) != 1)
    return 0;
  read(pipe_fd[0], &c, 1);
  return 1;
}

/* Against an inaccessible page: after its end (rounded up to its
 * alignment), or before it. */
static const char *where_aligned(const void *p, size_t n, size_t align) {
  const char *c = p;
  size_t end = (n + align - 1) & ~(align - 1);
  if (readable(c) && readable(c + n - 1) && !readable(c + end))
    return "guarded after";
  if (readable(c) && !readable(c - 1))
    return "guarded before";
  return "not guarded";
}
static const char *where(const void *p, size_t n) {
  return where_aligned(p, n, 16);
}

static int all_zero(const char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i])
      return 0;
  return 1;
}

int main(int argc, char **argv) {
  int clean = argc > 1;
  pipe(pipe_fd);
  char *small = malloc(24);
  printf("small: %s, usable %zu\n", where(small, 24), malloc_usable_size(small));
  char *zeroed = calloc(1, 5000);
  printf("calloc: %s, zero %d\n", where(zeroed, 5000), all_zero(zeroed, 5000));
  strcpy(small, "moved bytes");
  char *moved = realloc(small, 300);
  printf("realloc: %s, %s\n", where(moved, 300), moved);
  char *aligned = memalign(64, 100);
  printf("memalign: %s, aligned %d\n", where_aligned(aligned, 100, 64),
         ((uintptr_t)aligned & 63) == 0);
  char *large = malloc((1 << 20) + 100);
  printf("large: %s\n", where(large, (1 << 20) + 100));
  char *old = malloc(40);
  free(old);
  printf("freed: readable %d\n", readable(old));
  free(zeroed);
  free(aligned);
  free(large);
  free(moved);
  fflush(stdout);
  if (clean)
    return 0;
  char *inner = malloc(100);
  free(inner + 8);
  char *twice = malloc(50);
  free(twice);
  free(twice);
  char *lost = malloc(77);
  lost[0] = 1;
  lost = NULL;
  return 0;
}
// REAR: small: guarded after, usable 24
// REAR-NEXT: calloc: guarded after, zero 1
// REAR-NEXT: realloc: guarded after, moved bytes
// REAR-NEXT: memalign: guarded after, aligned 1
// REAR-NEXT: large: guarded after
// FRONT: small: guarded before, usable 24
// FRONT-NEXT: calloc: guarded before, zero 1
// FRONT-NEXT: realloc: guarded before, moved bytes
// FRONT-NEXT: memalign: guarded before, aligned 1
// FRONT-NEXT: large: guarded before
// CHECK-NEXT: freed: readable 0
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} UNKNOWN POINTER (free)
// CHECK-NEXT:   0x{{[0-9a-f]+}} is 8 bytes inside a block of size 100 at 0x{{[0-9a-f]+}}
// CHECK-NEXT:   allocated by malloc at {{.*}}blocks.c:79:17 (main)
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 50 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}blocks.c:81:17 (main)
// CHECK-NEXT:   freed by free at {{.*}}blocks.c:82:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}blocks.c:83:3 (main)
// CHECK: Direct leak of 100 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}blocks.c:79:17 (main)
// CHECK: Direct leak of 77 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}blocks.c:84:16 (main)
// CHECK: mdebug: SUMMARY: 2 errors (1 double free, 1 unknown pointer), 177 bytes leaked in 2 blocks
// OFF: small: not guarded
// OFF: freed: readable 1
// CLEAN: freed: readable 0
// CLEAN-NOT: mdebug
// (-fno-mdebug-check-lib-calls: the probes of guard pages through write() are not checked at the call.)
