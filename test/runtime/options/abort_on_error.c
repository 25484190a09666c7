// Proves: abort_on_error aborts (SIGABRT) right after the first error report,
// before the program goes on; without it the program carries on.
// RUN: %mdebug_clang %s -o %t
// RUN: env MDEBUG_OPTIONS=abort_on_error %not --crash %t 2>&1 | %FileCheck %s
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=GOES-ON
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  char *p = malloc(8);
  free(p);
  free(p);
  fprintf(stderr, "after the double free\n");
  return 0;
}
// CHECK: DOUBLE FREE (free)
// CHECK: mdebug: abort_on_error: aborting
// CHECK-NOT: after the double free
// GOES-ON: DOUBLE FREE (free)
// GOES-ON: after the double free
