// Proves: realloc keeps the contents when growing (old bytes copied) and
// when shrinking (the first n bytes kept), and always moves the block, so a
// write through the stale pointer lands in the quarantine and is reported
// with realloc as the freeing call.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 3 + 1))
      return 0;
  return 1;
}

int main(int argc, char **argv) {
  unsigned char *p = malloc(16);
  for (int i = 0; i < 16; i++)
    p[i] = (unsigned char)(i * 3 + 1);
  unsigned char *grown = realloc(p, 4000);
  fprintf(stderr, "grow: moved %d, kept %d\n", grown != p, same(grown, 16));
  if (argc == 1)
    p[0] = 0; /* the bug: p is stale */
  unsigned char *shrunk = realloc(grown, 8);
  fprintf(stderr, "shrink: kept %d\n", same(shrunk, 8));
  free(shrunk);
  return 0;
}
// CHECK: grow: moved 1, kept 1
// CHECK-NEXT: shrink: kept 1
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: use after free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// CHECK-NEXT:   allocation[0] = 0x00 (expected 0xef)
// CHECK-NEXT:   the block had size 16
// CHECK-NEXT:   allocated by malloc at {{.*}}realloc_contents.c:20:22 (main)
// CHECK-NEXT:   freed by realloc at {{.*}}realloc_contents.c:23:26 (main)
// CHECK-NEXT:   detected at exit, in the free_track quarantine
// CHECK: mdebug: SUMMARY: 1 error (1 use after free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: grow: moved 1, kept 1
// CLEAN-NEXT: shrink: kept 1
// CLEAN-NOT: mdebug
