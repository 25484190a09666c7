// Proves: when main returns while four other threads are still allocating
// and freeing, the exit-time checks (guards of every live block, then
// reachability) run with those threads stopped: the one lost block is
// reported exactly, the threads' blocks (on their stacks) are not, no block
// a thread frees meanwhile is misread as corrupted, and the process ends
// with status 23, not a crash. The clean run loses nothing: status 0.
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define RING 16

static int running;

static void *worker(void *arg) {
  void *ring[RING] = {0};
  __atomic_add_fetch(&running, 1, __ATOMIC_RELEASE);
  for (long i = 0;; i++) { /* until the process ends */
    free(ring[i % RING]);
    ring[i % RING] = malloc(16 + (size_t)(i * 7) % 300);
    memset(ring[i % RING], 'x', 16);
  }
  return NULL;
}

static __attribute__((noinline)) void lose_one(int really) {
  char *lost = malloc(4321);
  memset(lost, 'l', 4321);
  if (!really)
    free(lost);
}

int main(int argc, char **argv) {
  lose_one(argc == 1);
  pthread_t t;
  for (int k = 0; k < THREADS; k++)
    pthread_create(&t, NULL, worker, NULL);
  while (__atomic_load_n(&running, __ATOMIC_ACQUIRE) < THREADS)
    sched_yield();
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 4321 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CHECK-NEXT: Direct leak of 4321 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}exit_while_threads_allocate.c:32:16 (lose_one)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 4321 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 4321 bytes leaked in 1 block
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: exit status: 0
