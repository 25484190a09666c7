// Proves: posix_memalign honours every power-of-two alignment from 8 to
// 1 MiB exactly, the blocks free cleanly, and an aligned block has a front
// guard like any other with guard=16 (its report names posix_memalign).
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=guard=16 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=guard=16 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  void *blocks[18];
  int aligned = 0;
  for (int shift = 3; shift <= 20; shift++) {
    size_t align = (size_t)1 << shift;
    void **out = &blocks[shift - 3];
    if (posix_memalign(out, align, 100) != 0)
      return 2;
    memset(*out, 0x5a, 100);
    aligned += (uintptr_t)*out % align == 0;
  }
  fprintf(stderr, "aligned: %d of 18\n", aligned);
  if (argc == 1)
    ((char *)blocks[12 - 3])[-1] = 0; /* the 4096-aligned block */
  for (int i = 0; i < 18; i++)
    free(blocks[i]);
  return aligned == 18 ? 0 : 1;
}
// CHECK: aligned: 18 of 18
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: front guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}}000 SIZE 100 HAS A CORRUPTED FRONT GUARD
// CHECK-NEXT:   allocation[-1] = 0x00 (expected 0xaa)
// CHECK-NEXT:   allocated by posix_memalign at {{.*}}posix_memalign.c:18:9 (main)
// CHECK-NEXT:   detected by free at {{.*}}posix_memalign.c:27:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 front guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: aligned: 18 of 18
// CLEAN-NOT: mdebug
