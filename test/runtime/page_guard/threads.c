// Proves: page-guarded blocks work across threads: four threads allocate
// and free them (a quarter freed by another thread than the one that
// allocated them) with every block guarded or 1 in 7, without a report; and
// a read of a block freed by another thread faults in the reading thread
// and is reported as a use after free there.
// RUN: %mdebug_clang -g -O0 %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS=page_guard %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: env MDEBUG_OPTIONS=page_guard=7 %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %python %S/../../Inputs/exit_status.py env MDEBUG_OPTIONS=page_guard %t stale 2>&1 | %FileCheck %s
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 3000

static void *handoff[THREADS][ROUNDS];
static pthread_barrier_t barrier;

static void *work(void *arg) {
  long t = (long)arg;
  for (int i = 0; i < ROUNDS; i++) {
    size_t n = 1 + (size_t)(i * 37 + t) % 3000;
    char *p = malloc(n);
    memset(p, (int)t, n);
    if (i % 4 == 0) {
      handoff[t][i] = p; /* freed by the next thread */
    } else {
      char *q = realloc(p, n + 100);
      free(q);
    }
  }
  pthread_barrier_wait(&barrier);
  long next = (t + 1) % THREADS;
  for (int i = 0; i < ROUNDS; i++)
    free(handoff[next][i]);
  return NULL;
}

static int *shared;

static void *read_stale(void *arg) {
  (void)arg;
  fprintf(stderr, "thread reading\n");
  fprintf(stderr, "read %d\n", shared[1]);
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t threads[THREADS];
  if (argc > 1) {
    shared = calloc(8, sizeof(int));
    free(shared);
    pthread_create(&threads[0], NULL, read_stale, NULL);
    pthread_join(threads[0], NULL);
    return 0;
  }
  pthread_barrier_init(&barrier, NULL, THREADS);
  for (long t = 0; t < THREADS; t++)
    pthread_create(&threads[t], NULL, work, (void *)t);
  for (int t = 0; t < THREADS; t++)
    pthread_join(threads[t], NULL);
  printf("done\n");
  return 0;
}
// CLEAN: done
// CLEAN-NOT: mdebug
// CHECK: thread reading
// CHECK-NEXT: ***
// CHECK-NEXT: mdebug: ERROR: use after free in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 USED AFTER FREE (read)
// CHECK-NEXT:   read at 0x{{[0-9a-f]+}}: 4 bytes inside the freed block
// CHECK-NEXT:   allocated by calloc at {{.*}}threads.c:53:14 (main)
// CHECK-NEXT:   freed by free at {{.*}}threads.c:54:5 (main)
// CHECK-NEXT:   read by the instruction at pc 0x{{[0-9a-f]+}} in read_stale{{[+ ].*}} ({{.*}})
// CHECK: killed by signal 11
