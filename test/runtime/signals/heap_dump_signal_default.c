// Proves: SIGRTMAX-17, the heap dump signal, does not end a program run
// with the defaults (no backtrace): mdebug catches it, says in one line that
// a dump on this signal needs backtrace, and the program carries on with its
// own exit status. The clean case, with backtrace, has no such line (the
// service thread writes the dump, heap_dump/dump_on_signal.c).
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace_dump_prefix=%t.d/heap" %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_dump_prefix=%t.d/heap" %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  raise(SIGRTMAX - 17);
  usleep(200000);
  printf("still running\n");
  return 4;
}
// CHECK: mdebug: SIGRTMAX-17 received: heap dumps on this signal need the backtrace option (MDEBUG_OPTIONS=backtrace); nothing written (mdebug_dump_heap() writes one without it)
// CHECK-NEXT: still running
// CHECK-NEXT: exit status: 4
// CLEAN-NOT: SIGRTMAX-17 received
// CLEAN: still running
// CLEAN-NOT: SIGRTMAX-17 received
// CLEAN: exit status: 4
