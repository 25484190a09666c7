// Proves: backtrace_dump_on_exit (bt_dmp_on_ex) writes a well-formed heap
// dump to PREFIX.PID.exit.txt at exit, after the leak report and before the
// summary, listing the blocks still live (the leaked one with its stack);
// with backtrace_enable_on_signal instead of backtrace it dumps too (no
// stacks: capture was never turned on); without either it dumps what it
// knows, the blocks with their sites and no stacks, rather than nothing.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_dump_on_exit backtrace_dump_prefix=%t.d/heap" %not %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.d/heap.*.exit.txt | %FileCheck %s --check-prefix=DUMP
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="bt bt_dmp_on_ex bt_dmp_pre=%t.d/heap" %not %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.d/heap.*.exit.txt | %FileCheck %s --check-prefix=DUMP
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace_enable_on_signal backtrace_dump_on_exit backtrace_dump_prefix=%t.d/heap" %not %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.d/heap.*.exit.txt | %FileCheck %s --check-prefix=NOSTACK
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace_dump_on_exit backtrace_dump_prefix=%t.d/heap" %not %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.d/heap.*.exit.txt | %FileCheck %s --check-prefix=NOSTACK
// RUN: grep 'sites {.*malloc .*dump_on_exit.c [0-9]* [0-9]* lose' %t.d/heap.*.exit.txt
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace_dump_prefix=%t.d/heap" %not %t 2>&1 | %FileCheck %s --check-prefix=OFF
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) void lose(void) { memset(malloc(999), 0, 999); }

int main(void) {
  printf("pid %d\n", (int)getpid());
  lose();
  return 0;
}
// CHECK: pid [[PID:[0-9]+]]
// CHECK: Direct leak of 999 bytes in 1 block:
// CHECK: mdebug: Dumping to file: {{.*}}.d/heap.[[PID]].exit.txt
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 999 bytes leaked in 1 block
// DUMP: sz 999 num 1 frames 3 bt lose main [libc.so.6]
// DUMP: heap dump OK
// NOSTACK: sz 999 num 1 frames 0 bt{{$}}
// NOSTACK: heap dump OK
// OFF-NOT: Dumping
// OFF: mdebug: SUMMARY: 0 errors, 999 bytes leaked in 1 block
