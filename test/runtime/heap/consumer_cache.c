// Proves: a thread that only frees the blocks another thread allocates (a
// consumer) does not sit on their slots. The producer allocates 1,024
// blocks of 1,000 bytes, the consumer frees them all, and the producer's
// next 1,024 blocks reuse all but a few of those slots (8 new ones; 64
// while the consumer's cache kept up to 64 slots of a class it never
// allocates). Every check is off, so that no quarantine stands between a
// free and the slot's reuse.
// RUN: %mdebug_clang -g -O1 %s -o %t -pthread
// RUN: env MDEBUG_OPTIONS=none %t 2>&1 | %FileCheck %s
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1024, SIZE = 1000 };
static sem_t go, done;
static char *v[N], *first[N];

static void *consumer(void *arg) {
  (void)arg;
  for (int round = 0; round < 2; round++) {
    sem_wait(&go);
    for (int i = 0; i < N; i++)
      free(v[i]);
    sem_post(&done);
  }
  return NULL;
}

static int in_first(const char *p) {
  for (int i = 0; i < N; i++)
    if (first[i] == p)
      return 1;
  return 0;
}

int main(void) {
  pthread_t t;
  sem_init(&go, 0, 0);
  sem_init(&done, 0, 0);
  if (pthread_create(&t, NULL, consumer, NULL))
    return 1;
  for (int i = 0; i < N; i++) {
    v[i] = first[i] = malloc(SIZE);
    memset(v[i], 1, SIZE);
  }
  sem_post(&go);
  sem_wait(&done);
  int fresh = 0;
  for (int i = 0; i < N; i++) {
    v[i] = malloc(SIZE);
    memset(v[i], 2, SIZE);
    fresh += !in_first(v[i]);
  }
  sem_post(&go);
  sem_wait(&done);
  pthread_join(t, NULL);
  printf("second round: %s 16 new slots\n", fresh < 16 ? "fewer than" : "at least");
  return 0;
}
// CHECK: second round: fewer than 16 new slots
// CHECK-NOT: mdebug
