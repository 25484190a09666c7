// Proves: free of a stack address is reported as an unknown pointer that
// looks like an address on the thread's stack, and nothing is released.
// RUN: %mdebug_clang -g -Wno-free-nonheap-object %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char local[32];
  char *p = argc > 1 ? malloc(32) : local;
  fprintf(stderr, "freeing %p\n", (void *)p);
  free(p);
  return 0;
}
// CHECK: freeing [[ADDR:0x[0-9a-f]+]]
// CHECK: mdebug: ERROR: unknown pointer in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION [[ADDR]] UNKNOWN POINTER (free)
// CHECK-NEXT:   [[ADDR]] looks like an address on this thread's stack
// CHECK-NEXT:   detected by free at {{.*}}free_stack.c:13:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 unknown pointer), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
