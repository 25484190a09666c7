// Proves: free of a pointer into the middle of a live block (p + 8) is
// reported as an unknown pointer that names the block it points into (how
// far in, its size, address and allocation site), and the block itself
// stays live and can still be freed normally.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(32);
  char *cursor = p + (argc > 1 ? 0 : 8);
  fprintf(stderr, "freeing %p\n", (void *)cursor);
  free(cursor);
  if (cursor != p)
    free(p);
  return 0;
}
// CHECK: freeing [[ADDR:0x[0-9a-f]+]]
// CHECK: mdebug: ERROR: unknown pointer in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION [[ADDR]] UNKNOWN POINTER (free)
// CHECK-NEXT:   [[ADDR]] is 8 bytes inside a block of size 32 at 0x{{[0-9a-f]+}}
// CHECK-NEXT:   allocated by malloc at {{.*}}free_interior.c:12:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}free_interior.c:15:3 (main)
// CHECK-NOT: ERROR
// CHECK: mdebug: SUMMARY: 1 error (1 unknown pointer), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
