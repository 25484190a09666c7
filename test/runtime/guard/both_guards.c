// Proves: a block with both guards corrupted gets two reports, front first,
// each with its own evidence, and the summary counts both.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=guard=16 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=guard=16 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <string.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(20);
  int over = argc == 1 ? 2 : 0;
  memset(p - over, '-', 20 + 2 * over);
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: front guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION [[ADDR:0x[0-9a-f]+]] SIZE 20 HAS A CORRUPTED FRONT GUARD
// CHECK-NEXT:   allocation[-2] = 0x2d (expected 0xaa)
// CHECK-NEXT:   allocation[-1] = 0x2d (expected 0xaa)
// CHECK-NEXT:   allocated by malloc at {{.*}}both_guards.c:10:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}both_guards.c:13:3 (main)
// CHECK: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION [[ADDR]] SIZE 20 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[20] = 0x2d (expected 0xbb)
// CHECK-NEXT:   allocation[21] = 0x2d (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}both_guards.c:10:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}both_guards.c:13:3 (main)
// CHECK: mdebug: SUMMARY: 2 errors (1 front guard corrupted, 1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
