// Proves: with free_track=2, a write into a freed block is found as soon as
// two later frees push the block out of the quarantine (not only at exit),
// with the changed byte and the allocation and free sites.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=free_track=2 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=free_track=2 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(12);
  free(p);
  if (argc == 1)
    p[3] = 'u';
  for (int i = 0; i < 3; i++)
    free(malloc(8));
  fprintf(stderr, "three more blocks freed\n");
  return 0;
}
// CHECK: mdebug: ERROR: use after free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// CHECK-NEXT:   allocation[3] = 0x75 (expected 0xef)
// CHECK-NEXT:   the block had size 12
// CHECK-NEXT:   allocated by malloc at {{.*}}write_after_free_evict.c:11:13 (main)
// CHECK-NEXT:   freed by free at {{.*}}write_after_free_evict.c:12:3 (main)
// CHECK-NEXT:   detected when the block left the free_track quarantine (the last 2 freed blocks are kept)
// CHECK: three more blocks freed
// CHECK: mdebug: SUMMARY: 1 error (1 use after free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
