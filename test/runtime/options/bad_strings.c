// Proves: every kind of bad MDEBUG_OPTIONS string, for every option, prints
// one line naming the option and the rule, and the program then runs with
// the whole default set (its leak is still reported) and not half-configured
// (`none` before the error is not applied).
// RUN: %mdebug_clang %s -o %t
// RUN: env MDEBUG_OPTIONS="none bogus" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,UNKNOWN
// RUN: env MDEBUG_OPTIONS="none front_guard=0" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,FG-MIN
// RUN: env MDEBUG_OPTIONS="none rear_guard=16385" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,RG-MAX
// RUN: env MDEBUG_OPTIONS="none guard=-1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,G-NEG
// RUN: env MDEBUG_OPTIONS="none fill_on_alloc=x" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,FA-BAD
// RUN: env MDEBUG_OPTIONS="none fill_on_free=0" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,FF-MIN
// RUN: env MDEBUG_OPTIONS="none fill=12abc" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,F-JUNK
// RUN: env MDEBUG_OPTIONS="none expand_alloc=16385" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,EA-MAX
// RUN: env MDEBUG_OPTIONS="none free_track=99999999999999999999999" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,FT-RANGE
// RUN: env MDEBUG_OPTIONS="none leak_track=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,LT-VAL
// RUN: env MDEBUG_OPTIONS="none verify_pointers=yes" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,VP-VAL
// RUN: env MDEBUG_OPTIONS="none abort_on_error=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,AE-VAL
// RUN: env MDEBUG_OPTIONS="none verbose=2" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,V-VAL
// RUN: env MDEBUG_OPTIONS="none exitcode" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,EC-NONE
// RUN: env MDEBUG_OPTIONS="none exitcode=300" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,EC-MAX
// RUN: env MDEBUG_OPTIONS="none log_path" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,LP-NONE
// RUN: env MDEBUG_OPTIONS="none none=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,N-VAL
// RUN: env MDEBUG_OPTIONS="none help=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,H-VAL
// RUN: env MDEBUG_OPTIONS="none guard,leak_track" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,COMMA
// RUN: env MDEBUG_OPTIONS="none =3" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,NONAME
// RUN: env MDEBUG_OPTIONS="none max_leaks=x" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,ML-BAD
// RUN: env MDEBUG_OPTIONS="none max_leaks" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,ML-NONE
// RUN: env MDEBUG_OPTIONS="none suppressions" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,SUP-NONE
// RUN: env MDEBUG_OPTIONS="none leak_show_reachable=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,SR-VAL
// RUN: env MDEBUG_OPTIONS="none leak_start_pointers_only=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,SP-VAL
// RUN: env MDEBUG_OPTIONS="none check_unreachable_on_signal=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,CU-VAL
// RUN: env MDEBUG_OPTIONS="none leak_check=-1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,LC-NEG
// The clean case: a good string is applied (exitcode=0 keeps the status).
// RUN: env MDEBUG_OPTIONS="exitcode=0" %t 2>&1 | %FileCheck %s --check-prefix=GOOD
#include <stdlib.h>

void *keep;
int main(void) {
  keep = malloc(7);
  keep = 0;
  return 0;
}
// UNKNOWN: mdebug: MDEBUG_OPTIONS: unknown option bogus; ignoring MDEBUG_OPTIONS (running with the defaults)
// FG-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'front_guard', value must be >= 1: 0; ignoring
// RG-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'rear_guard', value must be <= 16384: 16385; ignoring
// G-NEG: mdebug: MDEBUG_OPTIONS: bad value for option 'guard', value cannot be negative: -1; ignoring
// FA-BAD: mdebug: MDEBUG_OPTIONS: bad value for option 'fill_on_alloc'; ignoring
// FF-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'fill_on_free', value must be >= 1: 0; ignoring
// F-JUNK: mdebug: MDEBUG_OPTIONS: bad value for option 'fill', non space found after option: abc; ignoring
// EA-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'expand_alloc', value must be <= 16384: 16385; ignoring
// FT-RANGE: mdebug: MDEBUG_OPTIONS: bad value for option 'free_track': Math result not representable; ignoring
// LT-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'leak_track' which does not take a value; ignoring
// VP-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'verify_pointers' which does not take a value; ignoring
// AE-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'abort_on_error' which does not take a value; ignoring
// V-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'verbose' which does not take a value; ignoring
// EC-NONE: mdebug: MDEBUG_OPTIONS: option 'exitcode' requires a value (exitcode=N); ignoring
// EC-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'exitcode', value must be <= 255: 300; ignoring
// LP-NONE: mdebug: MDEBUG_OPTIONS: option 'log_path' requires a value (log_path=PATH); ignoring
// N-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'none' which does not take a value; ignoring
// H-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'help' which does not take a value; ignoring
// COMMA: mdebug: MDEBUG_OPTIONS: unknown option guard,leak_track; ignoring
// NONAME: mdebug: MDEBUG_OPTIONS: option name missing before '=3'; ignoring
// ML-BAD: mdebug: MDEBUG_OPTIONS: bad value for option 'max_leaks'; ignoring
// ML-NONE: mdebug: MDEBUG_OPTIONS: option 'max_leaks' requires a value (max_leaks=N); ignoring
// SUP-NONE: mdebug: MDEBUG_OPTIONS: option 'suppressions' requires a value (suppressions=PATH); ignoring
// SR-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'leak_show_reachable' which does not take a value; ignoring
// SP-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'leak_start_pointers_only' which does not take a value; ignoring
// CU-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'check_unreachable_on_signal' which does not take a value; ignoring
// LC-NEG: mdebug: MDEBUG_OPTIONS: bad value for option 'leak_check', value cannot be negative: -1; ignoring
// CHECK: +++ {{.*}} leaked block of size 7 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK: mdebug: SUMMARY: 0 errors, 7 bytes leaked in 1 block
// GOOD-NOT: ignoring
// GOOD: leaked block of size 7
// GOOD: mdebug: SUMMARY: 0 errors, 7 bytes leaked in 1 block
