// Proves: a threshold takes a number of bytes only: a unit or a missing
// value is refused with a line naming the option and the rule, and the run
// keeps the defaults (no threshold: nothing else from mdebug).
// RUN: %mdebug_clang %s -o %t
// RUN: env MDEBUG_OPTIONS=vm_threshold=1G %t 2>&1 | %FileCheck %s --check-prefix=UNIT
// RUN: env MDEBUG_OPTIONS=rss_threshold %t 2>&1 | %FileCheck %s --check-prefix=MISSING
#include <stdio.h>
int main(void) {
  printf("ran\n");
  return 0;
}
// UNIT: mdebug: MDEBUG_OPTIONS: bad value for option 'vm_threshold', non space found after option: G; ignoring MDEBUG_OPTIONS (running with the defaults)
// UNIT-NEXT: ran
// UNIT-NOT: mdebug
// MISSING: mdebug: MDEBUG_OPTIONS: option 'rss_threshold' requires a value (rss_threshold=N); ignoring MDEBUG_OPTIONS (running with the defaults)
// MISSING-NEXT: ran
// MISSING-NOT: mdebug
