// Proves: the return value of a thread that has exited but is not yet
// joined is still reachable (glibc keeps it in the thread's descriptor
// until the join): a mid-run check reports nothing. Once joined, the value
// is the joiner's: dropped, it is reported at exit (the descriptor, cached
// for reuse, no longer hides it). The clean run frees it after the join.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "leak_check_util.h"

size_t mdebug_check_leaks(void);

static volatile int worker_tid;

static void *worker(void *arg) {
  worker_tid = (int)syscall(SYS_gettid);
  char *result = malloc(96);
  memset(result, 'w', 96);
  return result;
}

int main(int argc, char **argv) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  while (!worker_tid)
    ;
  /* Gone from the process, not yet joined. */
  while (syscall(SYS_tgkill, getpid(), worker_tid, 0) == 0)
    sched_yield();
  scrub_stack();
  fprintf(stderr, "check before the join returned %zu\n", mdebug_check_leaks());
  void *result;
  pthread_join(t, &result);
  if (argc > 1)
    free(result);
  result = NULL;
  scrub_stack();
  return 0;
}
// CHECK: check before the join returned 0
// CHECK-NEXT: ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}}
// CHECK-NEXT: mdebug: 96 bytes leaked in 1 block (1 direct, 0 indirect); {{.*}}
// CHECK-NEXT: Direct leak of 96 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}unjoined_thread_result.c:25:18 (worker)
// CLEAN-NOT: mdebug
// CLEAN: check before the join returned 0
// CLEAN-NOT: mdebug
