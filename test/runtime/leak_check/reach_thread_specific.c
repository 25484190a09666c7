// Proves: blocks whose only pointers are another thread's
// pthread_setspecific() values are not leaks while that thread runs
// (blocked reading a pipe when main returns): the values live in the
// thread's descriptor (the first 32 keys) or in a second-level array it
// points to (the others), and both are reached. The control run has the
// thread reset its values to NULL first, and the 40 blocks are then
// reported.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s --allow-empty
// RUN: %not %t drop 2>&1 | %FileCheck %s --check-prefix=CONTROL
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "leak_check_util.h"

#define KEYS 40

static pthread_key_t keys[KEYS];
static int fds[2];
static int ready, drop;

static __attribute__((noinline)) void set_values(void) {
  for (int i = 0; i < KEYS; i++) {
    char *value = malloc(40);
    memset(value, 'v', 40);
    pthread_setspecific(keys[i], value);
  }
  if (drop)
    for (int i = 0; i < KEYS; i++)
      pthread_setspecific(keys[i], NULL);
}

static void *holder(void *arg) {
  set_values();
  scrub_stack();
  __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
  char c;
  while (read(fds[0], &c, 1) != 0) /* nobody writes: blocks until exit */
    ;
  return NULL;
}

int main(int argc, char **argv) {
  drop = argc > 1;
  for (int i = 0; i < KEYS; i++)
    pthread_key_create(&keys[i], NULL);
  pipe(fds);
  pthread_t t;
  pthread_create(&t, NULL, holder, NULL);
  while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
    sched_yield();
  return 0;
}
// CHECK-NOT: mdebug
// CONTROL: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CONTROL-NEXT: mdebug: 1600 bytes leaked in 40 blocks (40 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CONTROL-NEXT: Direct leak of 1600 bytes in 40 blocks:
// CONTROL-NEXT:   allocated by malloc at {{.*}}reach_thread_specific.c:27:19 (set_values)
// CONTROL: mdebug: SUMMARY: 0 errors, 1600 bytes leaked in 40 blocks
