// Proves: the exit-time checks do not deadlock with a thread that holds
// the loader's lock: here a thread sits inside a dl_iterate_phdr callback,
// allocating and freeing (it holds the lock for a while, over and over,
// but not for ever), while main returns. The checks take what they
// need from the loader before the allocator makes other threads wait, so
// the leak is reported and the process ends with status 23 (`timeout`
// only turns a deadlock into a failure instead of a hang). The clean run
// loses nothing: status 0.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: %python %S/../../Inputs/exit_status.py timeout 120 %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py timeout 120 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "leak_check_util.h"

static volatile int inside;

static int hold_loader_lock(struct dl_phdr_info *info, size_t size, void *arg) {
  inside = 1;
  for (int i = 0; i < 20; i++) {
    free(malloc(32));
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  return 0;
}

static void *iterator(void *arg) {
  for (;;) /* until the process ends */
    dl_iterate_phdr(hold_loader_lock, NULL);
  return arg;
}

static __attribute__((noinline)) void lose(void) {
  char *p = malloc(64);
  memset(p, 'd', 64);
}

int main(int argc, char **argv) {
  pthread_t t;
  pthread_create(&t, NULL, iterator, NULL);
  while (!inside)
    ;
  if (argc == 1)
    lose();
  scrub_stack();
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in {{.*}}
// CHECK-NEXT: mdebug: 64 bytes leaked in 1 block (1 direct, 0 indirect); {{.*}}
// CHECK: mdebug: SUMMARY: 0 errors, 64 bytes leaked in 1 block
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: exit status: 0
