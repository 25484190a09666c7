// Proves: a program that lowers RLIMIT_NOFILE to 3 (no descriptor left
// beyond stdin, stdout and stderr) is still checked for leaks, mid-run and
// at exit, with a thread running: the /proc files the check reads were
// opened at start-up. The clean run loses nothing: no report, status 0.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "leak_check_util.h"

size_t mdebug_check_leaks(void);

static void *idle(void *arg) {
  for (;;)
    pause();
  return arg;
}

static __attribute__((noinline)) void lose(size_t n) {
  char *p = malloc(n);
  memset(p, 'r', n);
}

int main(int argc, char **argv) {
  setvbuf(stderr, NULL, _IONBF, 0);
  struct rlimit lim = {3, 3};
  if (setrlimit(RLIMIT_NOFILE, &lim) != 0 || open("/dev/null", O_RDONLY) >= 0)
    fprintf(stderr, "could not run out of descriptors\n");
  pthread_t t;
  pthread_create(&t, NULL, idle, NULL);
  if (argc == 1)
    lose(33);
  scrub_stack();
  fprintf(stderr, "mid-run check returned %zu\n", mdebug_check_leaks());
  if (argc == 1)
    lose(44);
  scrub_stack();
  return 0;
}
// CHECK-NOT: could not
// CHECK: mdebug: ERROR: memory leak in {{.*}}
// CHECK-NEXT: mdebug: 33 bytes leaked in 1 block (1 direct, 0 indirect) so far; {{.*}}
// CHECK: mid-run check returned 1
// CHECK: mdebug: ERROR: memory leak in {{.*}}
// CHECK-NEXT: mdebug: 44 bytes leaked in 1 block (1 direct, 0 indirect); {{.*}}
// CHECK: mdebug: SUMMARY: 0 errors, 77 bytes leaked in 2 blocks
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: mid-run check returned 0
// CLEAN-NEXT: exit status: 0
