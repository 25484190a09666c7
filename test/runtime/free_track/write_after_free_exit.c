// Proves: a write into a freed block still held by the quarantine at exit is
// reported at exit, with every changed byte and both sites.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

static void release(char *p) { free(p); }

int main(int argc, char **argv) {
  char *p = malloc(20);
  release(p);
  if (argc == 1) {
    p[0] = 0;
    p[19] = 0x13;
  }
  return 0;
}
// CHECK: mdebug: ERROR: use after free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// CHECK-NEXT:   allocation[0] = 0x00 (expected 0xef)
// CHECK-NEXT:   allocation[19] = 0x13 (expected 0xef)
// CHECK-NEXT:   the block had size 20
// CHECK-NEXT:   allocated by malloc at {{.*}}write_after_free_exit.c:11:13 (main)
// CHECK-NEXT:   freed by free at {{.*}}write_after_free_exit.c:8:32 (release)
// CHECK-NEXT:   detected at exit, in the free_track quarantine
// CHECK: mdebug: SUMMARY: 1 error (1 use after free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
