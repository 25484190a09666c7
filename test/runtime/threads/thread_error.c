// Proves: an error made in a secondary thread is reported with that
// thread's own tid (not the main thread's) and the site in the thread's
// function.
// RUN: %mdebug_clang -fno-mdebug-check-lib-calls -g %s -o %t -pthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static int overflow;

static void *worker(void *arg) {
  fprintf(stderr, "worker tid %ld\n", (long)syscall(SYS_gettid));
  char *name = malloc(8);
  snprintf(name, overflow ? 9 : 8, "%s", "12345678");
  free(name);
  return arg;
}

int main(int argc, char **argv) {
  overflow = argc == 1;
  fprintf(stderr, "main pid %d\n", (int)getpid());
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  return 0;
}
// CHECK: main pid [[PID:[0-9]+]]
// CHECK-NEXT: worker tid [[TID:[0-9]+]]
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: rear guard corrupted in {{.*}} (pid [[PID]], tid [[TID]])
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[8] = 0x00 (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}thread_error.c:18:16 (worker)
// CHECK-NEXT:   detected by free at {{.*}}thread_error.c:20:3 (worker)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// (-fno-mdebug-check-lib-calls: the thread's overflow is left to the guard: snprintf is not checked at the call.)
