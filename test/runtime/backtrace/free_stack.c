// Proves: a write to a freed block, found when the quarantine is checked at
// exit, is reported with the stack of the allocation and the stack of the
// free ("Backtrace at time of free:", 16 frames by default with backtrace);
// free_track_backtrace_num_frames=1 keeps only the innermost free frame and
// =0 none, while the allocation stack stays whole.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,FULL
// RUN: env MDEBUG_OPTIONS="backtrace free_track_backtrace_num_frames=1" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,ONE
// RUN: env MDEBUG_OPTIONS="backtrace free_track_backtrace_num_frames=0" %not %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,NONE
#include <stdlib.h>

__attribute__((noinline)) char *make(void) { return malloc(32); }
__attribute__((noinline)) void release(char *p) { free(p); }

int main(void) {
  char *p = make();
  release(p);
  ((volatile char *)p)[3] = 0x42;
  return 0;
}
// CHECK: USED AFTER FREE
// CHECK: allocation[3] = 0x42 (expected 0xef)
// CHECK: Backtrace at time of allocation:
// CHECK-NEXT: #00 pc {{[0-9a-f]{16} }}{{.*}} (make+{{[0-9]+}})
// CHECK-NEXT: #01 pc {{[0-9a-f]{16} }}{{.*}} (main+{{[0-9]+}})
// CHECK-NEXT: #02 pc {{[0-9a-f]{16} }}{{.*}}libc.so.6{{$}}
// FULL-NEXT: Backtrace at time of free:
// FULL-NEXT: #00 pc {{[0-9a-f]{16} }}{{.*}} (release+{{[0-9]+}})
// FULL-NEXT: #01 pc {{[0-9a-f]{16} }}{{.*}} (main+{{[0-9]+}})
// FULL-NEXT: #02 pc {{[0-9a-f]{16} }}{{.*}}libc.so.6{{$}}
// FULL-NEXT: *** ***
// ONE-NEXT: Backtrace at time of free:
// ONE-NEXT: #00 pc {{[0-9a-f]{16} }}{{.*}} (release+{{[0-9]+}})
// ONE-NEXT: *** ***
// NONE-NEXT: *** ***
// CHECK: mdebug: SUMMARY: 1 error
