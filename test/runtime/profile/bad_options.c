// Proves: bad values of the heap profile's options are refused with one
// line naming the option and the rule (sample_rate 1..1000000000,
// sample_bytes 1..2^40, track_min_size and track_max_size >= 1, max_tracked
// 1..100000000, snapshot_interval 1..31536000 seconds, profile_prefix needs
// a path, track_enable_on_signal takes no value), and the run then uses the
// defaults (no profile is written); the clean case: good values, as verbose
// shows them.
// RUN: %mdebug_clang %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d && cd %t.d
// RUN: env MDEBUG_OPTIONS="sample_rate=0" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,RATE-MIN
// RUN: env MDEBUG_OPTIONS="sample_rate=1000000001" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,RATE-MAX
// RUN: env MDEBUG_OPTIONS="sample_rate" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,RATE-NONE
// RUN: env MDEBUG_OPTIONS="sample_rate=1x" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,RATE-BAD
// RUN: env MDEBUG_OPTIONS="sample_bytes=0" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,BYTES-MIN
// RUN: env MDEBUG_OPTIONS="sample_bytes=1099511627777" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,BYTES-MAX
// RUN: env MDEBUG_OPTIONS="track_min_size=0" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,MIN-MIN
// RUN: env MDEBUG_OPTIONS="track_max_size=-5" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,MAX-NEG
// RUN: env MDEBUG_OPTIONS="max_tracked=0" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,CAP-MIN
// RUN: env MDEBUG_OPTIONS="max_tracked=100000001" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,CAP-MAX
// RUN: env MDEBUG_OPTIONS="snapshot_interval=0" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,IVL-MIN
// RUN: env MDEBUG_OPTIONS="snapshot_interval=31536001" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,IVL-MAX
// RUN: env MDEBUG_OPTIONS="profile_prefix" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,PFX-NONE
// RUN: env MDEBUG_OPTIONS="track_enable_on_signal=1" %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,SIG-VAL
// The clean case.
// RUN: env MDEBUG_OPTIONS="none verbose sample_rate=1000000000 sample_bytes=1099511627776 track_min_size=1 track_max_size=4096 max_tracked=100000000 snapshot_interval=31536000 profile_prefix=%t.d/p track_enable_on_signal" %t 2>&1 | %FileCheck %s --check-prefix=GOOD
#include <stdlib.h>

int main(void) {
  free(malloc(7));
  return 0;
}
// RATE-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'sample_rate', value must be >= 1: 0; ignoring MDEBUG_OPTIONS (running with the defaults)
// RATE-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'sample_rate', value must be <= 1000000000: 1000000001; ignoring
// RATE-NONE: mdebug: MDEBUG_OPTIONS: option 'sample_rate' requires a value (sample_rate=N); ignoring
// RATE-BAD: mdebug: MDEBUG_OPTIONS: bad value for option 'sample_rate', non space found after option: x; ignoring
// BYTES-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'sample_bytes', value must be >= 1: 0; ignoring
// BYTES-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'sample_bytes', value must be <= 1099511627776: 1099511627777; ignoring
// MIN-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'track_min_size', value must be >= 1: 0; ignoring
// MAX-NEG: mdebug: MDEBUG_OPTIONS: bad value for option 'track_max_size', value cannot be negative: -5; ignoring
// CAP-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'max_tracked', value must be >= 1: 0; ignoring
// CAP-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'max_tracked', value must be <= 100000000: 100000001; ignoring
// IVL-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'snapshot_interval', value must be >= 1: 0; ignoring
// IVL-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'snapshot_interval', value must be <= 31536000: 31536001; ignoring
// PFX-NONE: mdebug: MDEBUG_OPTIONS: option 'profile_prefix' requires a value (profile_prefix=PATH); ignoring
// SIG-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'track_enable_on_signal' which does not take a value; ignoring
// CHECK-NOT: mdebug
// GOOD: mdebug: options in force: profile_prefix={{.*}}.d/p snapshot_interval=31536000 sample_rate=1000000000 sample_bytes=1099511627776 track_min_size=1 track_max_size=4096 max_tracked=100000000 track_enable_on_signal
// GOOD-NOT: mdebug: MDEBUG_OPTIONS
