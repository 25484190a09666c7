// Proves: per-site totals stay exact with threads: 4 threads allocate at
// the same sites at once, blocks are freed by other threads than the ones
// that allocated them, threads exit and new ones take over their counters;
// every tracked block's free is recorded once. The clean case: one thread
// doing the same work gives the same totals.
// RUN: %mdebug_clang -g -O1 %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_rate=3 profile_prefix=%t.d/four" %t 4 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: grep '^[SC] ' %t.d/four.*.mdprof | %FileCheck %s
// RUN: %python %S/Inputs/profile_frees.py %t.d/four.*.mdprof | %FileCheck %s --check-prefix=FREES
// RUN: env MDEBUG_OPTIONS="none sample_rate=3 profile_prefix=%t.d/one" %t 1 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: grep '^[SC] ' %t.d/one.*.mdprof | %FileCheck %s
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCKS 20000
#define ROUNDS 3
static char *blocks[ROUNDS][BLOCKS];
static int nthreads;

struct job {
  int round, part;
};

/* Part k of a round allocates its share of the round's blocks, then frees
 * the share of the previous round that part k+1 allocated. */
static void *work(void *arg) {
  struct job *j = arg;
  int share = BLOCKS / nthreads;
  for (int i = j->part * share; i < (j->part + 1) * share; i++)
    blocks[j->round][i] = malloc(24 + (size_t)(i % 3) * 8);
  if (j->round > 0) {
    int from = (j->part + 1) % nthreads;
    for (int i = from * share; i < (from + 1) * share; i++)
      free(blocks[j->round - 1][i]);
  }
  return NULL;
}

int main(int argc, char **argv) {
  nthreads = atoi(argv[1]);
  struct job jobs[8];
  for (int round = 0; round < ROUNDS; round++) {
    pthread_t t[8];
    for (int k = 0; k < nthreads; k++) {
      jobs[k] = (struct job){round, k};
      pthread_create(&t[k], NULL, work, &jobs[k]);
    }
    for (int k = 0; k < nthreads; k++)
      pthread_join(t[k], NULL);
  }
  mdebug_snapshot("end");
  for (int i = 0; i < BLOCKS; i++)
    free(blocks[ROUNDS - 1][i]);
  mdebug_snapshot("freed");
  return 0;
}
// QUIET-NOT: mdebug
// CHECK: S [[SITE:[0-9a-f]+]] malloc {{.*}}threads.c 33 27 work char
// 60000 blocks of 24, 32 or 40 bytes (639992 bytes a round); 40000 freed.
// CHECK: C {{[0-9]+}} [[SITE]] 20000 639992 60000 40000 1919976
// CHECK: C {{[0-9]+}} [[SITE]] 0 0 60000 60000 1919976
// FREES: work:33 -> main:{{[0-9]+}} size 24 x {{[0-9]+}}
// FREES: work:33 -> work:{{[0-9]+}} size 24 x {{[0-9]+}}
