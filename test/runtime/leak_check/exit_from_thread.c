// Proves: when a thread other than main calls exit(), it is that thread's
// stack below the call that is dead (not a root): the block only a
// finished call of that thread pointed to is reported, with that thread's
// tid in the header, while the block only main's local points to is not,
// main being blocked in pthread_join with its frames alive. The clean run
// has the exiting thread free its block.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "leak_check_util.h"

static int release;

static __attribute__((noinline)) void work(void) {
  char *volatile lost = malloc(77);
  memset(lost, 'f', 77);
  if (release)
    free(lost);
}

static void *finisher(void *arg) {
  work();
  scrub_stack();
  fprintf(stderr, "exiting from thread %ld\n", (long)syscall(SYS_gettid));
  exit(0);
}

int main(int argc, char **argv) {
  release = argc > 1;
  char *volatile held = malloc(99); /* alive in main's frame until the end */
  memset(held, 'h', 99);
  scrub_stack();
  pthread_t t;
  pthread_create(&t, NULL, finisher, NULL);
  pthread_join(t, NULL); /* never returns: the thread ends the process */
  free(held);
  return 0;
}
// CHECK: exiting from thread [[TID:[0-9]+]]
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid [[TID]])
// CHECK-NEXT: mdebug: 77 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CHECK-NEXT: Direct leak of 77 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}exit_from_thread.c:23:25 (work)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 77 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 77 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: exiting from thread
// CLEAN-NOT: mdebug
