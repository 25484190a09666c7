// Proves: a block whose only pointers point inside it (p + 24, and its
// last byte), held by globals, is not a leak: by default a pointer anywhere
// into a block keeps it reachable. The control run clears the globals, and
// both blocks are then reported.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --allow-empty
// RUN: %not %t drop 2>&1 | %FileCheck %s --check-prefix=CONTROL
#include <stdlib.h>
#include <string.h>

#include "leak_check_util.h"

static char *cursor; /* p + 24 */
static char *last;   /* q + 63 */

static __attribute__((noinline)) void keep_interior(void) {
  char *p = malloc(100);
  memset(p, 'p', 100);
  cursor = p + 24;
  char *q = malloc(64);
  memset(q, 'q', 64);
  last = q + 63;
}

int main(int argc, char **argv) {
  keep_interior();
  if (argc > 1)
    cursor = last = NULL;
  scrub_stack();
  return 0;
}
// CHECK-NOT: mdebug
// CONTROL: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CONTROL-NEXT: mdebug: 164 bytes leaked in 2 blocks (2 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CONTROL-NEXT: Direct leak of 100 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at {{.*}}reach_interior_pointer.c:17:13 (keep_interior)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 100 at 0x{{[0-9a-f]+}} (leak 1 of 2)
// CONTROL-NEXT: Direct leak of 64 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at {{.*}}reach_interior_pointer.c:20:13 (keep_interior)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 64 at 0x{{[0-9a-f]+}} (leak 2 of 2)
// CONTROL-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CONTROL-NEXT: mdebug: SUMMARY: 0 errors, 164 bytes leaked in 2 blocks
