// Proves: guard evidence stops after 64 lines and counts the rest, so a
// long overrun gives a bounded report that still says how much changed.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=rear_guard=128 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=rear_guard=128 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *p = malloc(8);
  memset(p, 0, argc == 1 ? 108 : 8);
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[8] = 0x00 (expected 0xbb)
// CHECK-COUNT-62:   allocation[{{[0-9]+}}] = 0x00 (expected 0xbb)
// CHECK-NEXT:   allocation[71] = 0x00 (expected 0xbb)
// CHECK-NEXT:   ... 36 more corrupted bytes
// CHECK-NEXT:   allocated by malloc at {{.*}}evidence_limit.c:10:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}evidence_limit.c:12:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
