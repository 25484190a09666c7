// Proves: the exit-time leak check stops a thread that blocks every signal
// (threads are stopped with ptrace, which no signal mask resists) and
// reports the lost block with exit status 23. Where ptrace is forbidden (a
// seccomp filter, as in some containers) the check cannot stop that thread:
// it says so in an error report naming the thread and the reason, the
// SUMMARY counts it, and the exit status is 23, never a clean 0. The clean
// run loses nothing: no report, status 0.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py %t noptrace 2>&1 | %FileCheck %s --check-prefix=NOPTRACE
// RUN: %python %S/../../Inputs/exit_status.py %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "leak_check_util.h"
#include "no_ptrace.h"

static volatile int ready;

static void *blocker(void *arg) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  ready = 1;
  for (;;) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  return arg;
}

static __attribute__((noinline)) void lose(void) {
  char *p = malloc(321);
  memset(p, 'b', 321);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "noptrace") == 0)
    forbid_ptrace();
  pthread_t t;
  pthread_create(&t, NULL, blocker, NULL);
  while (!ready)
    ;
  if (argc == 1 || strcmp(argv[1], "clean") != 0)
    lose();
  scrub_stack();
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 321 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CHECK-NEXT: Direct leak of 321 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}blocked_signal_thread.c:36:13 (lose)
// CHECK: mdebug: SUMMARY: 0 errors, 321 bytes leaked in 1 block
// CHECK-NEXT: exit status: 23
// NOPTRACE: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// NOPTRACE-NEXT: mdebug: ERROR: leak check could not run in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// NOPTRACE-NEXT: mdebug: leak check could not run: could not stop the other threads: thread {{[0-9]+}}: it blocks the stop signal; ptrace not used: ptrace refused to attach (errno 1)
// NOPTRACE-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// NOPTRACE-NEXT: mdebug: SUMMARY: 1 error (1 leak check could not run), 0 bytes leaked in 0 blocks
// NOPTRACE-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: exit status: 0
