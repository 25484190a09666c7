// Proves: a block whose only pointer is a local variable of another thread,
// still running (blocked reading a pipe) when main returns, is not a leak:
// the stacks of the threads other than the exiting one are roots. The
// control run has the thread drop its pointer first, and the block is then
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

static int fds[2];
static int ready, drop;

static void *holder(void *arg) {
  char *volatile block = malloc(48);
  strcpy(block, "held by a thread blocked in read");
  if (drop)
    block = NULL;
  scrub_stack();
  __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
  char c;
  while (read(fds[0], &c, 1) != 0) /* nobody writes: blocks until exit */
    ;
  return (void *)block;
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
// CONTROL-NEXT: mdebug: 48 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CONTROL-NEXT: Direct leak of 48 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at {{.*}}reach_thread_stack.c:21:26 (holder)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 48 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CONTROL-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CONTROL-NEXT: mdebug: SUMMARY: 0 errors, 48 bytes leaked in 1 block
