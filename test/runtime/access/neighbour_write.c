// Proves: a write past a block that lands inside the next block, a live
// one, where neither guards nor an address check alone can see it, is
// reported at the write: the address was computed from the first block, so
// it is a heap buffer overflow of that block, and the block it lands in is
// named with its site. The clean twin writes the first block's last int.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void set(int *v, long i) { v[i] = -1; }

int main(int argc, char **argv) {
  int *a = malloc(8 * sizeof(int)), *b = malloc(8 * sizeof(int));
  int *lo = a < b ? a : b, *hi = a < b ? b : a;
  long into_hi = hi - lo + 2; /* the third int of the next block */
  set(lo, argc > 1 ? 7 : into_hi);
  if (hi - lo > 16)
    printf("not neighbours\n");
  free(a);
  free(b);
  return 0;
}
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 WRITTEN PAST ITS END
// CHECK-NEXT:   write of size 4 at 0x{{[0-9a-f]+}}: {{[0-9]+}} bytes after the end of the block
// CHECK-NEXT:   written at {{.*}}neighbour_write.c:12:59 (set)
// CHECK-NEXT:   allocated by malloc at {{.*}}neighbour_write.c:15:{{12|42}} (main)
// CHECK-NEXT:   0x{{[0-9a-f]+}} lies inside another block, of size 32 at 0x{{[0-9a-f]+}}:
// CHECK-NEXT:     allocated by malloc at {{.*}}neighbour_write.c:15:{{12|42}} (main)
// CHECK-NOT: not neighbours
// CHECK: mdebug: SUMMARY: {{.*}}1 heap buffer overflow
// CLEAN-NOT: mdebug
