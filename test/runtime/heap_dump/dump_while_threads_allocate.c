// Proves: heap dumps taken (by mdebug_dump_heap and by SIGRTMAX-17) while
// another thread allocates and frees without pause are each well formed
// (counts, totals, order, frames all consistent) and hold the main
// thread's 100 kept blocks as one record with their stack.
// RUN: %mdebug_clang -O1 -g %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_dump_prefix=%t.d/sig" %t %t.d 2>&1 | %FileCheck %s --check-prefix=RUN-OUT
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.d/api1 %t.d/api2 %t.d/api3 %t.d/sig.*.txt | %FileCheck %s
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"

static int stop, started;
void *kept[100];

static void *churn(void *arg) {
  void *ring[32] = {0};
  __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
  for (long i = 0; !__atomic_load_n(&stop, __ATOMIC_ACQUIRE); i++) {
    free(ring[i % 32]);
    ring[i % 32] = malloc(16 + (size_t)(i * 13) % 500);
  }
  for (int k = 0; k < 32; k++)
    free(ring[k]);
  return arg;
}

__attribute__((noinline)) void *hold(void) { return malloc(4444); }

int main(int argc, char **argv) {
  char path[4096];
  for (int i = 0; i < 100; i++)
    kept[i] = hold();
  pthread_t t;
  pthread_create(&t, NULL, churn, NULL);
  while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
    usleep(1000);
  int failed = 0;
  for (int k = 1; k <= 3; k++) {
    snprintf(path, sizeof(path), "%s/api%d", argv[1], k);
    failed |= mdebug_dump_heap(path);
  }
  snprintf(path, sizeof(path), "%s/sig.%d.txt", argv[1], (int)getpid());
  raise(SIGRTMAX - 17);
  int ok = wait_for_file_ending(path, "END\n");
  __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
  pthread_join(t, NULL);
  printf("api dumps %s, signal dump %s\n", failed ? "failed" : "ok",
         ok ? "complete" : "missing");
  return 0;
}
// RUN-OUT: api dumps ok, signal dump complete
// CHECK-LABEL: == {{.*}}/api1
// CHECK: sz 4444 num 100 frames 3 bt hold main [libc.so.6]
// CHECK: heap dump OK
// CHECK-LABEL: == {{.*}}/api2
// CHECK: sz 4444 num 100 frames 3 bt hold main [libc.so.6]
// CHECK: heap dump OK
// CHECK-LABEL: == {{.*}}/api3
// CHECK: sz 4444 num 100 frames 3 bt hold main [libc.so.6]
// CHECK: heap dump OK
// CHECK-LABEL: == {{.*}}/sig.{{[0-9]+}}.txt
// CHECK: sz 4444 num 100 frames 3 bt hold main [libc.so.6]
// CHECK: heap dump OK
