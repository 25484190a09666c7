// Proves: with leak_start_pointers_only, a block that only an interior
// pointer (p + 24, in a global) reaches is reported as a direct leak, while
// a block whose start a global holds is not; without the option (the clean
// run, default options) the interior pointer keeps its block reachable.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: %not env MDEBUG_OPTIONS=leak_start_pointers_only %t 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

#include "leak_check_util.h"

static char *cursor; /* p + 24 */
static char *start;  /* q */

static __attribute__((noinline)) void keep_pointers(void) {
  char *p = malloc(100);
  memset(p, 'p', 100);
  cursor = p + 24;
  char *q = malloc(30);
  memset(q, 'q', 30);
  start = q;
}

int main(void) {
  keep_pointers();
  scrub_stack();
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 100 bytes leaked in 1 block (1 direct, 0 indirect); 1 block (30 bytes) still reachable
// CHECK-NEXT: Direct leak of 100 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}start_pointers_only.c:17:13 (keep_pointers)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 100 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 100 bytes leaked in 1 block
// CLEAN-NOT: mdebug
