// Proves: bad values for the stack, heap dump, record and stats options are
// refused with one line naming the option and the rule (limits as malloc
// debug's: backtrace 1..256, record_allocs 1..50000000,
// free_track_backtrace_num_frames 0..256), and the run then uses the
// defaults; a short name is named as the user spelled it (bt).
// RUN: %mdebug_clang %s -o %t
// RUN: env MDEBUG_OPTIONS="backtrace=0" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,BT-MIN
// RUN: env MDEBUG_OPTIONS="bt=300" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,BT-MAX
// RUN: env MDEBUG_OPTIONS="backtrace_enable_on_signal=257" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,EN-MAX
// RUN: env MDEBUG_OPTIONS="backtrace_size" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,SZ-NONE
// RUN: env MDEBUG_OPTIONS="bt_min_sz=0" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,MIN-MIN
// RUN: env MDEBUG_OPTIONS="backtrace_max_size=x" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,MAX-BAD
// RUN: env MDEBUG_OPTIONS="record_allocs=50000001" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,RA-MAX
// RUN: env MDEBUG_OPTIONS="record_allocs=0" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,RA-MIN
// RUN: env MDEBUG_OPTIONS="record_allocs_file" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,RF-NONE
// RUN: env MDEBUG_OPTIONS="backtrace_dump_prefix" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,DP-NONE
// RUN: env MDEBUG_OPTIONS="backtrace_full=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,FULL-VAL
// RUN: env MDEBUG_OPTIONS="bt_dmp_on_ex=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,DOE-VAL
// RUN: env MDEBUG_OPTIONS="record_allocs_on_exit=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,RAE-VAL
// RUN: env MDEBUG_OPTIONS="log_allocator_stats_on_signal=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,LSS-VAL
// RUN: env MDEBUG_OPTIONS="log_allocator_stats_on_exit=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,LSE-VAL
// RUN: env MDEBUG_OPTIONS="free_track_backtrace_num_frames=257" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,FTB-MAX
// The clean cases: bare values and defaults, as verbose shows them.
// RUN: env MDEBUG_OPTIONS="verbose bt record_allocs" %not %t 2>&1 | %FileCheck %s --check-prefix=BARE
// RUN: env MDEBUG_OPTIONS="verbose bt_en_on_sig=4 bt_sz=24" %not %t 2>&1 | %FileCheck %s --check-prefix=SHORT
// RUN: env MDEBUG_OPTIONS="verbose" %not %t 2>&1 | %FileCheck %s --check-prefix=NOBT
// RUN: env MDEBUG_OPTIONS="verbose backtrace=256 free_track_backtrace_num_frames=0" %not %t 2>&1 | %FileCheck %s --check-prefix=LIMITS
#include <stdlib.h>

void *keep;
int main(void) {
  keep = malloc(7);
  keep = 0;
  return 0;
}
// BT-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'backtrace', value must be >= 1: 0; ignoring MDEBUG_OPTIONS (running with the defaults)
// BT-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'bt', value must be <= 256: 300; ignoring MDEBUG_OPTIONS (running with the defaults)
// EN-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'backtrace_enable_on_signal', value must be <= 256: 257; ignoring
// SZ-NONE: mdebug: MDEBUG_OPTIONS: option 'backtrace_size' requires a value (backtrace_size=N); ignoring
// MIN-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'bt_min_sz', value must be >= 1: 0; ignoring
// MAX-BAD: mdebug: MDEBUG_OPTIONS: bad value for option 'backtrace_max_size'; ignoring
// RA-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'record_allocs', value must be <= 50000000: 50000001; ignoring
// RA-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'record_allocs', value must be >= 1: 0; ignoring
// RF-NONE: mdebug: MDEBUG_OPTIONS: option 'record_allocs_file' requires a value (record_allocs_file=PATH); ignoring
// DP-NONE: mdebug: MDEBUG_OPTIONS: option 'backtrace_dump_prefix' requires a value (backtrace_dump_prefix=PATH); ignoring
// FULL-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'backtrace_full' which does not take a value; ignoring
// DOE-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'bt_dmp_on_ex' which does not take a value; ignoring
// RAE-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'record_allocs_on_exit' which does not take a value; ignoring
// LSS-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'log_allocator_stats_on_signal' which does not take a value; ignoring
// LSE-VAL: mdebug: MDEBUG_OPTIONS: value set for option 'log_allocator_stats_on_exit' which does not take a value; ignoring
// FTB-MAX: mdebug: MDEBUG_OPTIONS: bad value for option 'free_track_backtrace_num_frames', value must be <= 256: 257; ignoring
// CHECK-NOT: Backtrace
// CHECK: +++ {{.*}} leaked block of size 7 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK: mdebug: SUMMARY: 0 errors, 7 bytes leaked in 1 block
// BARE: mdebug: options in force: {{.*}} backtrace=16 free_track_backtrace_num_frames=16 record_allocs=8000000 {{.*}}
// SHORT: mdebug: options in force: {{.*}} backtrace_enable_on_signal=4 backtrace_min_size=24 backtrace_max_size=24 free_track_backtrace_num_frames=16 {{.*}}
// NOBT: mdebug: options in force:
// NOBT-NOT: backtrace
// NOBT-SAME: verbose
// LIMITS: mdebug: options in force: {{.*}} backtrace=256 {{.*}}
// LIMITS-NOT: free_track_backtrace_num_frames=
// LIMITS: leaked block of size 7
