// Proves: a program built with plain clang (not instrumented) and run with
// LD_PRELOAD=libmdebug-rt.so gets its double free reported, with return
// addresses in the program standing in for the sites.
// RUN: %clang -g %s -o %t
// RUN: %not env LD_PRELOAD=%mdebug_rt_so %t 2>&1 | %FileCheck %s
// RUN: env LD_PRELOAD=%mdebug_rt_so %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(17);
  free(p);
  if (argc == 1)
    free(p);
  return 0;
}
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 17 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}preload_double_free.c.tmp){{$}}
// CHECK-NEXT:   freed by free at pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}preload_double_free.c.tmp){{$}}
// CHECK-NEXT:   freed again by free at pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}preload_double_free.c.tmp){{$}}
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
