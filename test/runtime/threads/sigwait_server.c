// Proves: a leak check leaves the program's signals its own. A server
// thread waiting in sigwait() on every signal is stopped without being sent
// anything (ptrace), so it only ever receives what the program sends it
// (SIGUSR1), and the mid-run and exit-time checks both run. With ptrace
// forbidden (the signal fallback) the mid-run check cannot stop the server
// and says so, but still sends it nothing: the server's sigwait never
// returns mdebug's stop signal. The clean run shows the same server alone.
// The checks start once the server sleeps in sigwait: a thread caught on
// its way into sigwait looks, to the signal fallback, like a running thread
// that blocks nothing (docs/limits.md).
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py %t noptrace 2>&1 | %FileCheck %s --check-prefix=NOPTRACE
// RUN: %python %S/../../Inputs/exit_status.py %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#define _GNU_SOURCE /* gettid */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "leak_check_util.h"
#include "no_ptrace.h"

size_t mdebug_check_leaks(void);

static volatile int server_tid;

/* Until the thread sleeps in rt_sigtimedwait (sigwait's system call). */
static void wait_until_in_sigwait(int tid) {
  char path[64], buf[64];
  snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
  for (;;) {
    FILE *f = fopen(path, "r");
    long nr = -1;
    if (f && fgets(buf, sizeof(buf), f))
      nr = strtol(buf, NULL, 10);
    if (f)
      fclose(f);
    if (nr == SYS_rt_sigtimedwait)
      return;
    usleep(1000);
  }
}

static void *server(void *arg) {
  server_tid = gettid();
  sigset_t all;
  sigfillset(&all);
  for (;;) {
    int sig = 0;
    if (sigwait(&all, &sig) != 0)
      continue;
    printf("server got signal %d\n", sig);
    fflush(stdout);
    if (sig == SIGUSR1)
      return arg;
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  bool noptrace = argc > 1 && strcmp(argv[1], "noptrace") == 0;
  bool clean = argc > 1 && strcmp(argv[1], "clean") == 0;
  if (noptrace)
    forbid_ptrace();
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); /* the server inherits it */
  pthread_t t;
  pthread_create(&t, NULL, server, NULL);
  while (!server_tid)
    usleep(1000);
  wait_until_in_sigwait(server_tid);
  if (!clean)
    printf("mid-run check returned %zu\n", mdebug_check_leaks());
  pthread_kill(t, SIGUSR1);
  pthread_join(t, NULL);
  if (!clean && !noptrace) {
    char *p = malloc(55);
    memset(p, 's', 55);
    p = NULL;
  }
  scrub_stack();
  return 0;
}
// CHECK-NOT: server got signal 51
// CHECK-NOT: could not
// CHECK: mid-run check returned 0
// CHECK-NEXT: server got signal 10
// CHECK-NEXT: ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}}
// CHECK-NEXT: mdebug: 55 bytes leaked in 1 block (1 direct, 0 indirect); {{.*}}
// CHECK: mdebug: SUMMARY: 0 errors, 55 bytes leaked in 1 block
// CHECK-NEXT: exit status: 23
// NOPTRACE-NOT: server got signal
// NOPTRACE: mdebug: ERROR: leak check could not run in {{.*}}
// NOPTRACE-NEXT: mdebug: leak check could not run: could not stop the other threads: thread {{[0-9]+}}: it waits for the stop signal in sigwait; ptrace not used: ptrace refused to attach (errno 1)
// NOPTRACE: mid-run check returned 0
// NOPTRACE-NEXT: server got signal 10
// NOPTRACE-NEXT: mdebug: SUMMARY: 1 error (1 leak check could not run), 0 bytes leaked in 0 blocks
// NOPTRACE-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: server got signal 10
// CLEAN-NEXT: exit status: 0
