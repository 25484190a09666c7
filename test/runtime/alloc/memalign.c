// Proves: memalign honours power-of-two alignments from 16 to 1 MiB, rounds
// a non-power-of-two alignment (48) up to the next power of two as glibc
// does, and its blocks are tracked like any other (a double free names
// memalign as the allocator).
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int aligned = 0;
  for (int shift = 4; shift <= 20; shift++) {
    size_t align = (size_t)1 << shift;
    void *p = memalign(align, 10);
    aligned += p && (uintptr_t)p % align == 0;
    free(p);
  }
  char *odd = memalign(48, 10);
  fprintf(stderr, "aligned: %d of 17, memalign(48) %% 64 = %d\n", aligned,
          (int)((uintptr_t)odd % 64));
  free(odd);
  if (argc == 1)
    free(odd);
  return 0;
}
// CHECK: aligned: 17 of 17, memalign(48) % 64 = 0
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by memalign at {{.*}}memalign.c:21:15 (main)
// CHECK-NEXT:   freed by free at {{.*}}memalign.c:24:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}memalign.c:26:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: aligned: 17 of 17, memalign(48) % 64 = 0
// CLEAN-NOT: mdebug
