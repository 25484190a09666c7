// Proves: `help` lists every option with its values and the default set, and
// the program then runs normally; without `help` nothing is printed.
// RUN: %mdebug_clang %s -o %t
// RUN: env MDEBUG_OPTIONS=help %t 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
int main(void) {
  puts("program ran");
  return 0;
}
// CHECK: mdebug options, set as MDEBUG_OPTIONS="name[=value] ..." (space or ':' separated); default set: rear_guard=8 free_track=256 free_track_bytes=262144 fill_on_free=64 verify_pointers leak_check
// CHECK-NEXT: front_guard[=N] N in 1..16384, bare: 32 guard bytes (0xaa) before each block, rounded up to 16
// CHECK: free_track[=N] N in 1..16384, bare: 100 keep at least the last N freed blocks
// CHECK: exitcode=N N in 0..255
// CHECK: log_path=PATH
// CHECK: help print this list and carry on
// CHECK: program ran
// CLEAN: program ran
// CLEAN-NOT: mdebug
