// Proves: guard evidence lists every changed byte, one line each, with its
// index and value, and only the changed ones. Bytes 8-15 are the block's
// slack (0xbb); from 16 on, the guard area it shares with the next block,
// whose front guard (0xaa) it is too.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=guard=16 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=guard=16 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  unsigned char *p = malloc(8);
  if (argc == 1) {
    p[8] = 0x11;
    p[10] = 0x22;
    p[15] = 0x00;
    p[23] = 0xff;
  }
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[8] = 0x11 (expected 0xbb)
// CHECK-NEXT:   allocation[10] = 0x22 (expected 0xbb)
// CHECK-NEXT:   allocation[15] = 0x00 (expected 0xbb)
// CHECK-NEXT:   allocation[23] = 0xff (expected 0xaa)
// CHECK-NEXT:   allocated by malloc at {{.*}}several_bytes.c:11:22 (main)
// CHECK-NEXT:   detected by free at {{.*}}several_bytes.c:18:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
