// Proves: at -O2 an allocation whose only use is a bad write and a free is
// still made and checked (the pass rewrites it before LLVM could delete the
// malloc/free pair), so the overflow is reported with its sites.
// RUN: %mdebug_clang -O2 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(32);
  p[argc == 1 ? 32 : 31] = 7;
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[32] = 0x07 (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}optimized.c:10:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}optimized.c:12:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
