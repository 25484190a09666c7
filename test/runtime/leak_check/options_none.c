// Proves: MDEBUG_OPTIONS=none turns every option off, the leak check
// included: a program that leaks (one block lost, one cycle lost) reports
// nothing and ends with its own status, 0. The control run, with the
// default options, reports both.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=none %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CONTROL
#include <stdlib.h>

struct node {
  struct node *next;
};

int main(void) {
  char *lost = malloc(64);
  lost[0] = 0;
  struct node *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  a->next = b;
  b->next = a;
  return 0;
}
// CHECK-NOT: mdebug
// CHECK: exit status: 0
// CHECK-NOT: mdebug
// CONTROL: mdebug: 80 bytes leaked in 3 blocks (1 direct, 2 indirect); 0 blocks (0 bytes) still reachable
// CONTROL: mdebug: SUMMARY: 0 errors, 80 bytes leaked in 3 blocks
