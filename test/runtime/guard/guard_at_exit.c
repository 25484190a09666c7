// Proves: a corrupted guard in a block that is never freed is still found,
// at exit, and reported as such before the block is listed as a leak.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(16);
  if (argc > 1) {
    free(p);
    return 0;
  }
  p[16] = 0;
  return 0;
}
// CHECK: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION [[ADDR:0x[0-9a-f]+]] SIZE 16 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[16] = 0x00 (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}guard_at_exit.c:9:13 (main)
// CHECK-NEXT:   detected at exit, in a block still allocated
// CHECK: mdebug: ERROR: memory leak in
// CHECK-NEXT: mdebug: 16 bytes leaked in 1 block
// CHECK-NEXT: 16 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}guard_at_exit.c:9:13 (main)
// CHECK-NEXT: +++ {{.*}} leaked block of size 16 at [[ADDR]] (leak 1 of 1)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 16 bytes leaked in 1 block
// CLEAN-NOT: mdebug
