// Proves: exitcode=7 makes a run with an error end with status 7 (instead of
// the default 23), whatever the program itself returned.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=DEFAULT
// RUN: env MDEBUG_OPTIONS=exitcode=7 %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=exitcode=7 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(9);
  free(p);
  if (argc == 1)
    free(p);
  return 0;
}
// DEFAULT: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// DEFAULT-NEXT: exit status: 23
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 9 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}exitcode_seven.c:10:13 (main)
// CHECK-NEXT:   freed by free at {{.*}}exitcode_seven.c:11:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}exitcode_seven.c:13:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CHECK-NEXT: exit status: 7
// CLEAN-NOT: mdebug
