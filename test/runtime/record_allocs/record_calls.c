// Proves: record_allocs with record_allocs_on_exit writes FILE.PID at exit
// with one well-formed line per call, in call order: malloc, calloc
// (nmemb and size), memalign/posix_memalign/aligned_alloc/valloc/pvalloc
// as memalign (alignment and size), realloc (new, old, size; NULL old is
// 0x0; size 0 frees: new 0x0), strdup as malloc, free; free(NULL) is not
// recorded. The file holds a consistent run (every free of a live block).
// Without record_allocs_on_exit nothing is written at exit.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %t
// RUN: %python %S/../../Inputs/record_check.py --consistent %t.d/rec.* | %FileCheck %s
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_file=%t.d/rec" %t
// RUN: %python %S/../../Inputs/exit_status.py ls %t.d/rec.* | %FileCheck %s --check-prefix=NONE
#define _GNU_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *m = malloc(100);
  char *c = calloc(3, 200);
  void *a = memalign(64, 100);
  void *pm;
  posix_memalign(&pm, 32, 10);
  void *al = aligned_alloc(128, 256);
  void *v = valloc(20);
  void *pv = pvalloc(30);
  c = realloc(c, 50);
  char *r = realloc(NULL, 7);
  r = realloc(r, 0);
  free(NULL);
  char *s = strdup("hello");
  free(s);
  free(m);
  free(c);
  free(a);
  free(pm);
  free(al);
  free(v);
  free(pv);
  return 0;
}
// CHECK: T1 malloc [[M:p[0-9]+]] 100
// CHECK-NEXT: T1 calloc [[C:p[0-9]+]] 3 200
// CHECK-NEXT: T1 memalign [[A:p[0-9]+]] 64 100
// CHECK-NEXT: T1 memalign [[PM:p[0-9]+]] 32 10
// CHECK-NEXT: T1 memalign [[AL:p[0-9]+]] 128 256
// CHECK-NEXT: T1 memalign [[V:p[0-9]+]] 4096 20
// CHECK-NEXT: T1 memalign [[PV:p[0-9]+]] 4096 4096
// CHECK-NEXT: T1 realloc [[C2:p[0-9]+]] <- [[C]] 50
// CHECK-NEXT: T1 realloc [[R:p[0-9]+]] <- null 7
// CHECK-NEXT: T1 realloc null <- [[R]] 0
// CHECK-NEXT: T1 malloc [[S:p[0-9]+]] 6
// CHECK-NEXT: T1 free [[S]]
// CHECK-NEXT: T1 free [[M]]
// CHECK-NEXT: T1 free [[C2]]
// CHECK-NEXT: T1 free [[A]]
// CHECK-NEXT: T1 free [[PM]]
// CHECK-NEXT: T1 free [[AL]]
// CHECK-NEXT: T1 free [[V]]
// CHECK-NEXT: T1 free [[PV]]
// CHECK-NEXT: records: {{[0-9]+}} threads: 1
// NONE: exit status: 2
