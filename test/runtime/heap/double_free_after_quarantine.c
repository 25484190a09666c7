// Proves: a block that has left the free_track quarantine but was not reused
// is still known as freed: freeing it again is a double free that names its
// allocation and free sites (the metadata outlives the quarantine). The clean
// run frees once.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="free_track=4" %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="free_track=4" %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(3000);
  free(p);
  for (int i = 0; i < 10; i++) { /* pushes p out of the quarantine */
    void *volatile q = malloc(24);
    free(q);
  }
  if (argc == 1)
    free(p);
  return 0;
}
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 3000 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}double_free_after_quarantine.c:11:13 (main)
// CHECK-NEXT:   freed by free at {{.*}}double_free_after_quarantine.c:12:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}double_free_after_quarantine.c:18:5 (main)
// CHECK-NEXT:   (the block had left the free_track quarantine and was not reused yet)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
