// Proves: a thread that ends by pthread_exit, or by cancellation (which
// unwinds through the runtime's start of the thread), releases its stack
// like one that returns: after the joins, and once a detached one that
// called pthread_exit is gone, no thread stack is accounted; the values
// pthread_exit and cancellation leave reach the join.
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS=log_allocator_stats_on_exit %t 2>&1 | %FileCheck %s
#define _GNU_SOURCE /* gettid */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int detached_tid;

static void *exits(void *arg) {
  pthread_exit((char *)arg + 1);
}

static void *waits(void *arg) {
  for (;;)
    pause(); /* a cancellation point */
  return arg;
}

static void *exits_detached(void *arg) {
  detached_tid = gettid();
  pthread_exit(arg);
}

int main(void) {
  pthread_t a, b, c;
  void *ra, *rb;
  pthread_create(&a, NULL, exits, (void *)0x1000);
  pthread_create(&b, NULL, waits, NULL);
  pthread_create(&c, NULL, exits_detached, NULL);
  pthread_detach(c);
  pthread_join(a, &ra);
  pthread_cancel(b);
  pthread_join(b, &rb);
  while (!detached_tid)
    usleep(1000);
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/task/%d", detached_tid);
  for (int ms = 0; access(path, F_OK) == 0; ms++) {
    if (ms == 20000)
      abort();
    usleep(1000);
  }
  printf("exit value %p, cancelled %d\n", ra, rb == PTHREAD_CANCELED);
  return 0;
}
// CHECK: exit value 0x1001, cancelled 1
// CHECK: mdebug: stats: by category: heap blocks {{[0-9]+}} bytes in {{[0-9]+}} blocks; mappings 0 bytes in 0 mappings; thread stacks 0 bytes in 0 stacks
// CHECK-NOT: mdebug: ERROR
