// Proves: a write to a freed block, found when the quarantine is checked at
// exit, is reported with the stack of the allocation and the stack of the
// free ("Backtrace at time of free:", 16 frames by default with backtrace);
// free_track_backtrace_num_frames=1 keeps only the innermost free frame and
// =0 none, while the allocation stack stays whole. Every frame names its
// function and source line (llvm-symbolizer), in hex, the address of the
// call (return address - 1); libc's frame is named by its module at least.
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
// CHECK-NEXT: #00 pc 0x{{[0-9a-f]+}} in make {{.*}}free_stack.c:14:{{[0-9]+}} ({{.*}}free_stack.c.tmp){{$}}
// CHECK-NEXT: #01 pc 0x{{[0-9a-f]+}} in main {{.*}}free_stack.c:{{1[89]}}:{{[0-9]+}} ({{.*}}free_stack.c.tmp){{$}}
// CHECK-NEXT: #02 pc 0x{{[0-9a-f]+}} {{.*}}(/{{.*}}libc.so.6){{$}}
// FULL-NEXT: Backtrace at time of free:
// FULL-NEXT: #00 pc 0x{{[0-9a-f]+}} in release {{.*}}free_stack.c:15:{{[0-9]+}} ({{.*}}free_stack.c.tmp){{$}}
// FULL-NEXT: #01 pc 0x{{[0-9a-f]+}} in main {{.*}}free_stack.c:{{1[89]}}:{{[0-9]+}} ({{.*}}free_stack.c.tmp){{$}}
// FULL-NEXT: #02 pc 0x{{[0-9a-f]+}} {{.*}}(/{{.*}}libc.so.6){{$}}
// FULL-NEXT: *** ***
// ONE-NEXT: Backtrace at time of free:
// ONE-NEXT: #00 pc 0x{{[0-9a-f]+}} in release {{.*}}free_stack.c:15:{{[0-9]+}} ({{.*}}free_stack.c.tmp){{$}}
// ONE-NEXT: *** ***
// NONE-NEXT: *** ***
// CHECK: mdebug: SUMMARY: 1 error
