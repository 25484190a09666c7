// Proves: realloc(p, 0) frees p, so a later free(p) is a double free whose
// first release is named as realloc.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(33);
  char *q = realloc(p, 0);
  if (argc == 1)
    free(p);
  free(q);
  return 0;
}
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 33 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}realloc_zero_then_free.c:9:13 (main)
// CHECK-NEXT:   freed by realloc at {{.*}}realloc_zero_then_free.c:10:13 (main)
// CHECK-NEXT:   freed again by free at {{.*}}realloc_zero_then_free.c:12:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
