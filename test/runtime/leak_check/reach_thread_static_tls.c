// Proves: a block whose only pointer is another thread's copy of a static
// __thread variable (the program's static TLS) is not a leak while that
// thread runs (blocked reading a pipe when main returns): the static TLS of
// the threads other than the exiting one is a root. The control run has the
// thread clear its variable first, and the block is then reported.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s --allow-empty
// RUN: %not %t drop 2>&1 | %FileCheck %s --check-prefix=CONTROL
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "leak_check_util.h"

static __thread char *mine;
static int fds[2];
static int ready, drop;

static __attribute__((noinline)) void keep_in_tls(void) {
  mine = malloc(56);
  strcpy(mine, "held by another thread's __thread variable");
  if (drop)
    mine = NULL;
}

static void *holder(void *arg) {
  keep_in_tls();
  scrub_stack();
  __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
  char c;
  while (read(fds[0], &c, 1) != 0) /* nobody writes: blocks until exit */
    ;
  return NULL;
}

int main(int argc, char **argv) {
  drop = argc > 1;
  pipe(fds);
  pthread_t t;
  pthread_create(&t, NULL, holder, NULL);
  while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
    sched_yield();
  return 0;
}
// CHECK-NOT: mdebug
// CONTROL: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CONTROL-NEXT: mdebug: 56 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CONTROL-NEXT: Direct leak of 56 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at {{.*}}reach_thread_static_tls.c:22:10 (keep_in_tls)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 56 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CONTROL-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CONTROL-NEXT: mdebug: SUMMARY: 0 errors, 56 bytes leaked in 1 block
