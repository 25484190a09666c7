// Proves: leak_track (malloc debug's meaning of a leak) lists every block
// still allocated at exit, one a global still points to included, under
// "leak_track: every block still allocated at exit", while the default
// leak_check does not report that reachable block (the clean run).
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not env MDEBUG_OPTIONS=leak_track %t 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

static char *settings; /* kept until the end, on purpose */

int main(void) {
  settings = malloc(222);
  memset(settings, 's', 222);
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 222 bytes leaked in 1 block (leak_track: every block still allocated at exit)
// CHECK-NEXT: 222 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}leak_track_reachable.c:14:14 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 222 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 222 bytes leaked in 1 block
// CLEAN-NOT: mdebug
