// Proves: a write one byte before a block is reported when the block is
// freed, as a corrupted front guard at index -1 with the 0xaa expectation.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=guard=16 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=guard=16 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(24);
  if (argc == 1)
    p[-1] = 0x41;
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: front guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 HAS A CORRUPTED FRONT GUARD
// CHECK-NEXT:   allocation[-1] = 0x41 (expected 0xaa)
// CHECK-NEXT:   allocated by malloc at {{.*}}front_guard.c:9:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}front_guard.c:12:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 front guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
