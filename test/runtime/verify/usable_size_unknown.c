// Proves: malloc_usable_size of a pointer mdebug never handed out is
// reported as an unknown pointer (malloc_usable_size) and returns 0.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char local[24];
  char *heap = malloc(24);
  char *p = argc > 1 ? heap : local;
  size_t n = malloc_usable_size(p);
  fprintf(stderr, "usable size %zu\n", n);
  free(heap);
  return 0;
}
// CHECK: mdebug: ERROR: unknown pointer in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION [[ADDR:0x[0-9a-f]+]] UNKNOWN POINTER (malloc_usable_size)
// CHECK-NEXT:   [[ADDR]] looks like an address on this thread's stack
// CHECK-NEXT:   detected by malloc_usable_size at {{.*}}usable_size_unknown.c:14:14 (main)
// CHECK: usable size 0
// CHECK: mdebug: SUMMARY: 1 error (1 unknown pointer), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: usable size 24
// CLEAN-NOT: mdebug
