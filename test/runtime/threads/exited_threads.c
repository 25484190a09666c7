// Proves: blocks allocated by threads that have exited stay tracked (each
// thread's block table outlives it and is handed to later threads): the
// main thread frees most of them cleanly, a double free of one is still
// named, and the ones nobody freed are reported as leaks with their site.
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <pthread.h>
#include <stdlib.h>

#define THREADS 16
#define BLOCKS 500
static void *blocks[THREADS][BLOCKS];

static void *worker(void *arg) {
  void **mine = arg;
  for (int i = 0; i < BLOCKS; i++)
    mine[i] = malloc(16 + i % 64);
  return NULL;
}

int main(int argc, char **argv) {
  /* Two waves, so the second wave's threads reuse the first wave's tables. */
  for (int wave = 0; wave < 2; wave++) {
    pthread_t t[THREADS / 2];
    for (int k = 0; k < THREADS / 2; k++)
      pthread_create(&t[k], NULL, worker, blocks[wave * THREADS / 2 + k]);
    for (int k = 0; k < THREADS / 2; k++)
      pthread_join(t[k], NULL);
  }
  for (int k = 0; k < THREADS; k++)
    for (int i = 0; i < BLOCKS; i++)
      if (argc > 1 || !(k == 3 && i < 2))
        free(blocks[k][i]);
      else
        blocks[k][i] = NULL; /* the last pointer to it: now leaked */
  if (argc == 1)
    free(blocks[THREADS - 1][BLOCKS - 1]); /* freed last: still quarantined */
  return 0;
}
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 67 DOUBLE FREE (free)
// CHECK-NEXT: allocated by malloc at {{.*}}exited_threads.c:18:15 (worker)
// CHECK-NEXT: freed by free at {{.*}}exited_threads.c:34:9 (main)
// CHECK-NEXT: freed again by free at {{.*}}exited_threads.c:38:5 (main)
// CHECK: mdebug: 33 bytes leaked in 2 blocks
// CHECK-NEXT: 33 bytes in 2 blocks:
// CHECK-NEXT: allocated by malloc at {{.*}}exited_threads.c:18:15 (worker)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 33 bytes leaked in 2 blocks
// CLEAN-NOT: mdebug
