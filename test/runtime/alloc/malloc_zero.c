// Proves: malloc(0) returns a unique, non-NULL pointer with usable size 0,
// and writing even one byte into it is a rear guard corruption at index 0.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *a = malloc(0);
  char *b = malloc(0);
  fprintf(stderr, "non-NULL %d, distinct %d, usable %zu\n", a && b, a != b,
          malloc_usable_size(a));
  if (argc == 1)
    a[0] = 'x';
  free(a);
  free(b);
  return 0;
}
// CHECK: non-NULL 1, distinct 1, usable 0
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 0 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[0] = 0x78 (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}malloc_zero.c:11:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}malloc_zero.c:17:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: non-NULL 1, distinct 1, usable 0
// CLEAN-NOT: mdebug
