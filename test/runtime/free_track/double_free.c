// Proves: freeing a block twice is called a double free, with the sites of
// the allocation, the first free and the second free.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  int *p = malloc(7 * sizeof(int));
  free(p);
  if (argc == 1)
    free(p);
  return 0;
}
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 28 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}double_free.c:9:12 (main)
// CHECK-NEXT:   freed by free at {{.*}}double_free.c:10:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}double_free.c:12:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
