// Proves: with check_unreachable_on_signal, SIGRTMAX-16 runs the leak check
// at once, even though the program makes no further allocation (it sleeps),
// reporting the block lost so far; the block is not reported again at exit.
// Without the option the signal is not caught by mdebug (the program ignores
// it itself). A forked child gets its own service thread and answers the
// signal. (Its report is not checked: the child allocates in a thread whose
// cached stack the service thread may reuse, and a stale pointer there can
// legitimately keep the block "reachable" for a conservative scan.)
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS=check_unreachable_on_signal %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=check_unreachable_on_signal %not %t fork 2>&1 | %FileCheck %s --check-prefix=FORK
// RUN: %not %t ignore 2>&1 | %FileCheck %s --check-prefix=OFF
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* About a second without allocating. The leak check's stop signal cuts a
 * single sleep short (EINTR), so sleep in slices. */
static void wait_a_second(void) {
  for (int i = 0; i < 100; i++)
    usleep(10000);
}

static void *lose_in_thread(void *arg) {
  char *p = malloc(77);
  memset(p, 1, 77);
  return arg;
}

/* Lost by a thread that has exited: no stale copy of the pointer can be
 * left in this thread's stack or registers (which are roots mid-run). */
static void lose(void) {
  pthread_t t;
  pthread_create(&t, NULL, lose_in_thread, NULL);
  pthread_join(t, NULL);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "ignore") == 0)
    signal(SIGRTMAX - 16, SIG_IGN);
  if (argc > 1 && strcmp(argv[1], "fork") == 0) {
    pid_t child = fork();
    if (child == 0) {
      lose();
      kill(getpid(), SIGRTMAX - 16);
      for (int i = 0; i < 3; i++) /* a loaded machine is slower to stop */
        wait_a_second();
      fprintf(stderr, "child after the signal\n");
      _exit(0);
    }
    waitpid(child, NULL, 0);
    lose();
    return 0;
  }
  lose();
  kill(getpid(), SIGRTMAX - 16);
  wait_a_second(); /* no allocation from here on */
  fprintf(stderr, "after the signal\n");
  return 0;
}
// CHECK: mdebug: SIGRTMAX-16 received: checking for unreachable memory
// CHECK: mdebug: 77 bytes leaked in 1 block (1 direct, 0 indirect) so far;
// CHECK-NEXT: Direct leak of 77 bytes in 1 block:
// CHECK-NEXT: allocated by malloc at {{.*}}check_unreachable_on_signal.c:29:13 (lose_in_thread)
// CHECK: after the signal
// CHECK-NOT: Direct leak
// CHECK: mdebug: SUMMARY: 0 errors, 77 bytes leaked in 1 block
// FORK: mdebug: SIGRTMAX-16 received: checking for unreachable memory
// FORK: child after the signal
// FORK: mdebug: SUMMARY: 0 errors, 77 bytes leaked in 1 block
// OFF-NOT: SIGRTMAX-16 received
// OFF: Direct leak of 77 bytes in 1 block:
// OFF: mdebug: SUMMARY: 0 errors, 77 bytes leaked in 1 block
