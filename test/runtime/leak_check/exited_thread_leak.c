// Proves: a block a thread allocated and lost before it exited is reported
// at exit with its site in the thread's function: a thread that has ended
// is no root (what is left of its stack and TLS, even if glibc keeps the
// memory for the next thread, holds no pointer that counts). The clean run
// has the thread free its block.
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static __thread char *scratch_of_this_thread;
static int release;

static void *worker(void *arg) {
  char *scratch = malloc(333);
  memset(scratch, 'w', 333);
  scratch_of_this_thread = scratch;
  if (release)
    free(scratch);
  return NULL; /* scratch and the thread's TLS end here */
}

int main(int argc, char **argv) {
  release = argc > 1;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 333 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CHECK-NEXT: Direct leak of 333 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}exited_thread_leak.c:17:19 (worker)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 333 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 333 bytes leaked in 1 block
// CLEAN-NOT: mdebug
