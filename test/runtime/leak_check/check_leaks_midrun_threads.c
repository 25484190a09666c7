// Proves: mdebug_check_leaks() called while four threads allocate and free
// reports the one block lost so far ("so far", with its site) and returns
// 1; the threads then carry on and finish all their work; at exit that
// block is not reported a second time, but the summary counts it (once) and
// the exit status is 23. The clean run loses nothing: the call returns 0 and
// the run ends with status 0 and no report.
// RUN: %mdebug_clang -g -I%mdebug_include -I%S/../../Inputs %s -o %t -lpthread
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_check_util.h"

#define THREADS 4
#define RING 16
#define ROUNDS_AFTER 20000

static char *anchor; /* the lowest live block (see check_leaks_lowest_block.c) */
static int running, checked;
static long rounds_after;

static void round_of_work(void **ring, long i) {
  size_t slot = (size_t)i % RING;
  free(ring[slot]);
  ring[slot] = malloc(16 + (size_t)(i * 7) % 300);
  memset(ring[slot], 'x', 16);
}

static void *worker(void *arg) {
  void *ring[RING] = {0};
  long i = 0;
  /* Work until the main thread has checked, then a fixed amount more. */
  for (; i < 1000; i++)
    round_of_work(ring, i);
  __atomic_add_fetch(&running, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&checked, __ATOMIC_ACQUIRE))
    round_of_work(ring, i++);
  for (long k = 0; k < ROUNDS_AFTER; k++)
    round_of_work(ring, i++);
  for (int s = 0; s < RING; s++)
    free(ring[s]);
  __atomic_add_fetch(&rounds_after, ROUNDS_AFTER, __ATOMIC_RELAXED);
  return NULL;
}

static __attribute__((noinline)) void lose_one(int really) {
  char *lost = malloc(4321);
  memset(lost, 'l', 4321);
  if (!really)
    free(lost);
}

int main(int argc, char **argv) {
  anchor = malloc(8);
  lose_one(argc == 1);
  scrub_stack();
  pthread_t t[THREADS];
  for (int k = 0; k < THREADS; k++)
    pthread_create(&t[k], NULL, worker, NULL);
  while (__atomic_load_n(&running, __ATOMIC_ACQUIRE) < THREADS)
    sched_yield();
  size_t reported = mdebug_check_leaks();
  __atomic_store_n(&checked, 1, __ATOMIC_RELEASE);
  fprintf(stderr, "check returned %zu\n", reported);
  for (int k = 0; k < THREADS; k++)
    pthread_join(t[k], NULL);
  fprintf(stderr, "rounds after the check: %ld\n", rounds_after);
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 4321 bytes leaked in 1 block (1 direct, 0 indirect) so far; {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CHECK-NEXT: Direct leak of 4321 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}check_leaks_midrun_threads.c:52:16 (lose_one)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 4321 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: check returned 1
// CHECK-NEXT: rounds after the check: 80000
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 4321 bytes leaked in 1 block
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: check returned 0
// CLEAN-NEXT: rounds after the check: 80000
// CLEAN-NEXT: exit status: 0
