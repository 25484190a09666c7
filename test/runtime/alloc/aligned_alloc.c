// Proves: aligned_alloc honours alignments from 16 to 1 MiB exactly, the
// blocks free cleanly, and an aligned block has a rear guard like any other
// (its report names aligned_alloc).
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int aligned = 0;
  for (int shift = 4; shift <= 20; shift++) {
    size_t align = (size_t)1 << shift;
    char *p = aligned_alloc(align, align);
    if (!p)
      return 2;
    memset(p, 0x11, align);
    aligned += (uintptr_t)p % align == 0;
    if (argc == 1 && align == 256)
      p[align] = 0x22;
    free(p);
  }
  fprintf(stderr, "aligned: %d of 17\n", aligned);
  return aligned == 17 ? 0 : 1;
}
// CHECK: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}}00 SIZE 256 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[256] = 0x22 (expected 0xbb)
// CHECK-NEXT:   allocated by aligned_alloc at {{.*}}aligned_alloc.c:16:15 (main)
// CHECK-NEXT:   detected by free at {{.*}}aligned_alloc.c:23:5 (main)
// CHECK: aligned: 17 of 17
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: aligned: 17 of 17
// CLEAN-NOT: mdebug
