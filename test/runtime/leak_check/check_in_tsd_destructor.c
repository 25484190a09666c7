// Proves: a leak check run from a thread's TSD destructor (while the thread
// is exiting) still treats that thread's __thread variables as roots: the
// block only its static TLS points to is not reported. Adapted from
// LeakSanitizer's cleanup_in_tsd_destructor test (compiler-rt,
// test/lsan/TestCases/cleanup_in_tsd_destructor.c): there a destructor
// calls __lsan_do_leak_check(), after which LSan checks no more; mdebug's
// exit check still runs, and by then the thread and its TLS are gone: the
// block is lost and reported there. The control run clears the variable
// first: the check in the destructor reports the block at its site.
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %mdebug_clang -g -O2 %s -o %t.o2 -lpthread
// RUN: %not %t.o2 2>&1 | %FileCheck %s
// RUN: %not %t drop 2>&1 | %FileCheck %s --check-prefix=DROP
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mdebug/mdebug.h>

static pthread_key_t key;
__thread void *p; /* not static, as in the original */
static int drop;
static size_t reported;

static void key_destructor(void *arg) {
  (void)arg;
  /* Generally this may happen on a different thread. */
  reported = mdebug_check_leaks();
}

static void *thread_func(void *arg) {
  p = malloc(1337);
  if (drop)
    p = NULL;
  int res = pthread_setspecific(key, (void *)1);
  assert(res == 0);
  return arg;
}

int main(int argc, char **argv) {
  drop = argc > 1 && strcmp(argv[1], "drop") == 0;
  int res = pthread_key_create(&key, &key_destructor);
  assert(res == 0);
  pthread_t thread_id;
  res = pthread_create(&thread_id, 0, thread_func, 0);
  assert(res == 0);
  res = pthread_join(thread_id, 0);
  assert(res == 0);
  fprintf(stderr, "check reported %zu\n", reported);
  return 0;
}
// CHECK-NOT: Direct leak
// CHECK: check reported 0
// CHECK: Direct leak of 1337 bytes in 1 block:
// CHECK-NEXT: allocated by malloc at {{.*}}check_in_tsd_destructor.c:35:7 (thread_func)
// DROP: Direct leak of 1337 bytes in 1 block:
// DROP-NEXT: allocated by malloc at {{.*}}check_in_tsd_destructor.c:35:7 (thread_func)
// DROP: check reported 1
