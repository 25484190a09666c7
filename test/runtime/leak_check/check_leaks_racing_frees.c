// Proves: mdebug_check_leaks() called again and again while 8 threads
// allocate and free (free_track off: freed blocks go straight back to the
// system, some of them unmapped) takes what its report says while the
// threads are stopped: each of the 40 reports names exactly the one block
// lost before it, with a possible "still reachable" total (not the garbage
// of a reused header), and no check crashes on a block unmapped under it.
// The clean run loses nothing: no report, every check returns 0.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS="none guard=16 verify_pointers leak_check exitcode=0" %t 2>&1 | %python %S/../../Inputs/leak_totals.py 777 300000 40 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="none leak_check exitcode=0" GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536 %t 2>&1 | %python %S/../../Inputs/leak_totals.py 777 300000 40 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="none guard=16 verify_pointers leak_check" %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
// CHECK: ok: 40 reports
// CLEAN-NOT: mdebug
// CLEAN: done: 40 checks returned 0
// CLEAN-NOT: mdebug
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "leak_check_util.h"

size_t mdebug_check_leaks(void);

#define THREADS 8
#define RING 8
#define CHECKS 40

static int running, stop;

static void *worker(void *arg) {
  void *ring[RING] = {0};
  unsigned seed = (unsigned)(size_t)arg * 2654435761u + 1;
  __atomic_add_fetch(&running, 1, __ATOMIC_RELEASE);
  for (long i = 0; !__atomic_load_n(&stop, __ATOMIC_ACQUIRE); i++) {
    seed = seed * 1103515245u + 12345u;
    /* Mostly small blocks, now and then one big enough to be mmap'ed. */
    size_t n = seed % 16 ? 16 + (seed >> 8) % 2000 : 70000 + (seed >> 8) % 200000;
    free(ring[i % RING]);
    ring[i % RING] = malloc(n);
    memset(ring[i % RING], 'x', 16);
  }
  for (int s = 0; s < RING; s++)
    free(ring[s]);
  return NULL;
}

static __attribute__((noinline)) void lose_one(int really) {
  char *lost = malloc(777);
  memset(lost, 'l', 777);
  if (!really)
    free(lost);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  pthread_t t[THREADS];
  for (long k = 0; k < THREADS; k++)
    pthread_create(&t[k], NULL, worker, (void *)k);
  while (__atomic_load_n(&running, __ATOMIC_ACQUIRE) < THREADS)
    sched_yield();
  size_t nonzero = 0;
  for (int i = 0; i < CHECKS; i++) {
    lose_one(argc == 1);
    scrub_stack();
    size_t reported = mdebug_check_leaks();
    if (argc == 1)
      fprintf(stderr, "check returned %zu\n", reported);
    nonzero += reported != 0;
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
  for (int k = 0; k < THREADS; k++)
    pthread_join(t[k], NULL);
  if (argc > 1)
    printf("done: %d checks returned %s\n", CHECKS, nonzero ? "non-zero" : "0");
  return 0;
}
