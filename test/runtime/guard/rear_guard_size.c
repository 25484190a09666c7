// Proves: rear_guard=64 guards 64 bytes after the block: a write to the last
// of them (63 bytes past the end) is reported as allocation[size+63]. With
// a front guard too, the last of those bytes lie in the guard area the next
// block's front guard shares, and hold its 0xaa.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=rear_guard=64 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="front_guard=16 rear_guard=64" %not %t 2>&1 | %FileCheck %s --check-prefix=SHARED
// RUN: env MDEBUG_OPTIONS=rear_guard=64 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(10);
  if (argc == 1)
    p[10 + 63] = 'z';
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[73] = 0x7a (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}rear_guard_size.c:12:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}rear_guard_size.c:15:3 (main)
// SHARED: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 HAS A CORRUPTED REAR GUARD
// SHARED-NEXT:   allocation[73] = 0x7a (expected 0xaa)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
