// Proves: realloc(p, 0) frees p and returns NULL (glibc's behaviour): the
// block is not leaked, and a write through p afterwards is a use after free
// whose free site is the realloc call.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(12);
  char *q = realloc(p, 0);
  fprintf(stderr, "realloc(p, 0) returned %s\n", q ? "a block" : "NULL");
  if (argc == 1)
    p[5] = '!';
  return 0;
}
// CHECK: realloc(p, 0) returned NULL
// CHECK: mdebug: ERROR: use after free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// CHECK-NEXT:   allocation[5] = 0x21 (expected 0xef)
// CHECK-NEXT:   the block had size 12
// CHECK-NEXT:   allocated by malloc at {{.*}}realloc_zero.c:11:13 (main)
// CHECK-NEXT:   freed by realloc at {{.*}}realloc_zero.c:12:13 (main)
// CHECK-NEXT:   detected at exit, in the free_track quarantine
// CHECK: mdebug: SUMMARY: 1 error (1 use after free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: realloc(p, 0) returned NULL
// CLEAN-NOT: mdebug
