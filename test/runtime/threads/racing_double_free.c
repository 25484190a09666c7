// Proves: when two threads free the same block at the same moment, exactly
// one of them frees it and the other gets the double free report, every
// time: 200 races give 200 reports and no crash (the block never reaches
// glibc twice).
// RUN: %mdebug_clang -g -O1 %s -o %t -pthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="verify_pointers" %not %t 2>&1 | %FileCheck %s
// CHECK: 200 races run
// CHECK: mdebug: SUMMARY: 200 errors (200 double free)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { RACES = 200 };

static void *volatile block;
static int round_go, round_done[2];

static void *racer(void *arg) {
  long me = (long)arg;
  for (int r = 1; r <= RACES; r++) {
    while (__atomic_load_n(&round_go, __ATOMIC_ACQUIRE) != r)
      ; /* both threads leave this spin together */
    free(block);
    __atomic_store_n(&round_done[me], r, __ATOMIC_RELEASE);
  }
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, racer, (void *)i);
  for (int r = 1; r <= RACES; r++) {
    block = malloc(32);
    __atomic_store_n(&round_go, r, __ATOMIC_RELEASE);
    while (__atomic_load_n(&round_done[0], __ATOMIC_ACQUIRE) != r ||
           __atomic_load_n(&round_done[1], __ATOMIC_ACQUIRE) != r)
      ;
  }
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  fprintf(stderr, "%d races run\n", RACES);
  return 0;
}
