// Proves: front_guard=39 is rounded up to 48 bytes, so a write 48 bytes
// before the block still lands in the guard; evidence starts at
// allocation[-48].
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=front_guard=39 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=front_guard=39 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  unsigned char *p = malloc(8);
  if (argc == 1) {
    p[-48] = 0x01;
    p[-40] = 0x02;
  }
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: front guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 HAS A CORRUPTED FRONT GUARD
// CHECK-NEXT:   allocation[-48] = 0x01 (expected 0xaa)
// CHECK-NEXT:   allocation[-40] = 0x02 (expected 0xaa)
// CHECK-NEXT:   allocated by malloc at {{.*}}front_guard_size.c:10:22 (main)
// CHECK-NEXT:   detected by free at {{.*}}front_guard_size.c:15:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 front guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
