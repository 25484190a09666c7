// Proves: mdebug_check_leaks() does its job while many threads (16, more
// than the CPUs) allocate and free without pause: it is not skipped for
// want of a moment when no stopped thread holds a block-table lock, and it
// reports the one block lost so far. The clean run loses nothing: the call
// returns 0, no report, exit status 0.
// RUN: %mdebug_clang -g -I%mdebug_include -I%S/../../Inputs %s -o %t -lpthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_check_util.h"

#define THREADS 16
#define RING 16

static int running, stop;

static void *worker(void *arg) {
  void *ring[RING] = {0};
  __atomic_add_fetch(&running, 1, __ATOMIC_RELEASE);
  for (long i = 0; !__atomic_load_n(&stop, __ATOMIC_ACQUIRE); i++) {
    free(ring[i % RING]);
    ring[i % RING] = malloc(16 + (size_t)(i * 7) % 300);
  }
  for (int s = 0; s < RING; s++)
    free(ring[s]);
  return NULL;
}

static __attribute__((noinline)) void lose_one(int really) {
  char *lost = malloc(1234);
  memset(lost, 'l', 1234);
  if (!really)
    free(lost);
}

int main(int argc, char **argv) {
  lose_one(argc == 1);
  scrub_stack();
  pthread_t t[THREADS];
  for (int k = 0; k < THREADS; k++)
    pthread_create(&t[k], NULL, worker, NULL);
  while (__atomic_load_n(&running, __ATOMIC_ACQUIRE) < THREADS)
    sched_yield();
  size_t reported = mdebug_check_leaks();
  __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
  for (int k = 0; k < THREADS; k++)
    pthread_join(t[k], NULL);
  fprintf(stderr, "check returned %zu\n", reported);
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 1234 bytes leaked in 1 block (1 direct, 0 indirect) so far; {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CHECK-NEXT: Direct leak of 1234 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}check_leaks_busy_threads.c:36:16 (lose_one)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 1234 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: check returned 1
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 1234 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: check returned 0
// CLEAN-NOT: mdebug
