// Proves: records carry the calling thread's id: two threads' calls are
// recorded under two ids of their own (not the main thread's), each
// followed by that thread's thread_done line when it exits; the main
// thread's own calls keep its id.
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %t
// RUN: %python %S/../../Inputs/record_check.py --consistent %t.d/rec.* | %FileCheck %s
#include <pthread.h>
#include <stdlib.h>

static void *work(void *arg) {
  void *p = malloc((size_t)arg);
  free(malloc((size_t)arg + 1));
  free(p);
  return NULL;
}

int main(void) {
  free(malloc(1));
  pthread_t t;
  pthread_create(&t, NULL, work, (void *)100);
  pthread_join(t, NULL);
  pthread_create(&t, NULL, work, (void *)200);
  pthread_join(t, NULL);
  free(malloc(2));
  return 0;
}
// CHECK: T1 malloc [[A:p[0-9]+]] 1
// CHECK-NEXT: T1 free [[A]]
// CHECK: [[T2:T[0-9]+]] malloc [[B:p[0-9]+]] 100
// CHECK-NEXT: [[T2]] malloc [[C:p[0-9]+]] 101
// CHECK-NEXT: [[T2]] free [[C]]
// CHECK-NEXT: [[T2]] free [[B]]
// CHECK-NEXT: [[T2]] thread_done
// CHECK: [[T3:T[0-9]+]] malloc [[D:p[0-9]+]] 200
// CHECK-NEXT: [[T3]] malloc [[E:p[0-9]+]] 201
// CHECK-NEXT: [[T3]] free [[E]]
// CHECK-NEXT: [[T3]] free [[D]]
// CHECK-NEXT: [[T3]] thread_done
// CHECK: T1 malloc [[F:p[0-9]+]] 2
// CHECK-NEXT: T1 free [[F]]
// CHECK-NEXT: records: {{[0-9]+}} threads: 3
