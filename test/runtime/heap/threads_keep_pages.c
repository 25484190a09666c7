// Proves: two threads that each free the blocks they allocate keep their
// blocks on pages of their own, however their frees interleave. Two threads
// allocate 4,096 blocks of 48 bytes each, then free them in turns of 64
// (each turn overflows a thread's cache, which gives 32 slots back to its
// class), then allocate 4,096 again in turns of 64; a page holding blocks
// of both threads in the second round is shared. With one stack of free
// slots per class the second round took the slots back in the order the
// turns gave them, every other batch the other thread's, and 96 of 97
// pages were shared; an arena per thread leaves only the pages where its
// runs of fresh slots meet the other's (3 of 99), or none when the runs
// happen not to meet (about 1 run in 20). Every check is off, so that no
// quarantine stands between a free and the slot's reuse.
// RUN: %mdebug_clang -g -O1 %s -o %t -pthread
// RUN: env MDEBUG_OPTIONS=none %t 2>&1 | %FileCheck %s
// The clean case: one thread alone shares no page with anyone.
// RUN: env MDEBUG_OPTIONS=none %t alone 2>&1 | %FileCheck %s --check-prefix=CLEAN
// CHECK: shared pages: {{few|none}}
// CLEAN: shared pages: none
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 4096, SIZE = 48, TURN = 64 };
static char *blocks[2][N];
static pthread_barrier_t step;
static int threads = 2;

static void sync_step(void) {
  if (threads == 2)
    pthread_barrier_wait(&step);
}

static void *run(void *arg) {
  int me = (int)(intptr_t)arg;
  char **v = blocks[me];
  for (int i = 0; i < N; i++) {
    v[i] = malloc(SIZE);
    memset(v[i], me, SIZE);
  }
  /* Turns: thread 0 frees 64, then thread 1 frees 64, and so on; then
   * the same with allocations. */
  for (int round = 0; round < 2; round++)
    for (int t = 0; t < N / TURN; t++)
      for (int who = 0; who < 2; who++) {
        if (who == me)
          for (int i = t * TURN; i < (t + 1) * TURN; i++) {
            if (round == 0) {
              free(v[i]);
            } else {
              v[i] = malloc(SIZE);
              memset(v[i], me, SIZE);
            }
          }
        sync_step();
      }
  return NULL;
}

static int cmp(const void *a, const void *b) {
  uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  static uintptr_t pages[2][N];
  if (argc > 1 && strcmp(argv[1], "alone") == 0)
    threads = 1;
  pthread_barrier_init(&step, NULL, 2);
  pthread_t t[2];
  for (int i = 0; i < threads; i++)
    if (pthread_create(&t[i], NULL, run, (void *)(intptr_t)i))
      return 1;
  for (int i = 0; i < threads; i++)
    pthread_join(t[i], NULL);
  for (int w = 0; w < 2; w++) {
    for (int i = 0; i < N; i++)
      pages[w][i] = (uintptr_t)blocks[w][i] >> 12;
    qsort(pages[w], N, sizeof(pages[w][0]), cmp);
  }
  /* Pages in both sorted lists (each counted once), and in either. */
  int shared = 0, all = 0;
  for (int w = 0; w < 2; w++)
    for (int i = 0; i < N; i++)
      all += i == 0 || pages[w][i] != pages[w][i - 1];
  for (int i = 0, j = 0; i < N && j < N;) {
    if (pages[0][i] < pages[1][j]) {
      i++;
    } else if (pages[0][i] > pages[1][j]) {
      j++;
    } else {
      uintptr_t p = pages[0][i];
      shared++;
      while (i < N && pages[0][i] == p)
        i++;
      while (j < N && pages[1][j] == p)
        j++;
    }
  }
  all -= shared;
  printf("shared pages: %s (%d of %d)\n",
         shared == 0 ? "none" : shared * 4 <= all ? "few" : "many", shared,
         all);
  for (int w = 0; w < threads; w++)
    for (int i = 0; i < N; i++)
      free(blocks[w][i]);
  return 0;
}
