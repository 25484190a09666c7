// Proves: exitcode=0 still reports the leak but keeps the program's own exit
// status (0 here, 3 when the program returns 3), where the default ends the
// run with status 23.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=DEFAULT
// RUN: env MDEBUG_OPTIONS=exitcode=0 %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=exitcode=0 %python %S/../../Inputs/exit_status.py %t leak 3 2>&1 | %FileCheck %s --check-prefix=OWN
// RUN: %t clean 0 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(5);
  p[0] = 0;
  if (argc > 1 && argv[1][0] == 'c')
    free(p);
  return argc > 2 ? atoi(argv[2]) : 0;
}
// DEFAULT: mdebug: SUMMARY: 0 errors, 5 bytes leaked in 1 block
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 5 bytes leaked in 1 block
// CHECK-NEXT: 5 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}exitcode_zero.c:12:13 (main)
// CHECK: mdebug: SUMMARY: 0 errors, 5 bytes leaked in 1 block
// CHECK-NEXT: exit status: 0
// OWN: mdebug: SUMMARY: 0 errors, 5 bytes leaked in 1 block
// OWN-NEXT: exit status: 3
// CLEAN-NOT: mdebug
