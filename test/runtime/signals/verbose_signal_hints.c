// Proves: with verbose, mdebug prints for each signal it installs a line
// saying which `kill -N PID` does what (N = SIGRTMAX-19 ... SIGRTMAX-15, 45
// to 49 on Linux); only the signals of the options given are installed
// (backtrace alone: the heap dump only), and without verbose none is named.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="verbose backtrace_enable_on_signal record_allocs check_unreachable_on_signal log_allocator_stats_on_signal" %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="verbose backtrace" %t 2>&1 | %FileCheck %s --check-prefix=BT
// RUN: env MDEBUG_OPTIONS="backtrace record_allocs" %t 2>&1 | %FileCheck %s --check-prefix=QUIET
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  fprintf(stderr, "pid %d SIGRTMAX %d\n", (int)getpid(), SIGRTMAX);
  return 0;
}
// CHECK: mdebug: options in force:
// CHECK-NEXT: mdebug: verbose_signal_hints.c.tmp: Run: 'kill -45 [[PID:[0-9]+]]' to enable backtracing.
// CHECK-NEXT: mdebug: verbose_signal_hints.c.tmp: Run: 'kill -46 [[PID]]' to dump the allocation records.
// CHECK-NEXT: mdebug: verbose_signal_hints.c.tmp: Run: 'kill -47 [[PID]]' to dump the backtrace.
// CHECK-NEXT: mdebug: verbose_signal_hints.c.tmp: Run: 'kill -48 [[PID]]' to check for unreachable memory.
// CHECK-NEXT: mdebug: verbose_signal_hints.c.tmp: Run: 'kill -49 [[PID]]' to log allocator stats.
// CHECK-NEXT: pid [[PID]] SIGRTMAX 64
// BT: mdebug: options in force:
// BT-NEXT: mdebug: verbose_signal_hints.c.tmp: Run: 'kill -47 [[PID:[0-9]+]]' to dump the backtrace.
// BT-NEXT: pid [[PID]] SIGRTMAX 64
// QUIET-NOT: Run:
// QUIET: pid
