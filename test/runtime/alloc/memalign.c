// Proves: memalign honours power-of-two alignments from 16 to 1 MiB (and 0,
// malloc's); an alignment that is not a power of two (48) is reported at its
// site as an invalid allocation alignment (AddressSanitizer's
// invalid-allocation-alignment; glibc would round it up to 64) and refused
// with NULL and errno EINVAL; memalign's blocks are tracked like any other
// (a double free names memalign as the allocator). With
// allocator_may_return_null the refusal is quiet.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
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
  char *zero = memalign(0, 10);
  errno = 0;
  char *odd = memalign(48, 10);
  fprintf(stderr, "aligned: %d of 17, memalign(0) %s, memalign(48) %s, errno %s\n",
          aligned, zero ? "a block" : "NULL", odd ? "a block" : "NULL",
          errno == EINVAL ? "EINVAL" : "?");
  free(zero);
  if (argc == 1)
    free(zero);
  return 0;
}
// CHECK:      mdebug: ERROR: invalid allocation alignment in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST WITH ALIGNMENT 48 INVALID (memalign)
// CHECK-NEXT:   alignment 48 (for 10 bytes) is not a power of two
// CHECK-NEXT:   requested by memalign at {{.*}}memalign.c:27:15 (main)
// CHECK-NEXT:   memalign returns NULL, errno EINVAL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: aligned: 17 of 17, memalign(0) a block, memalign(48) NULL, errno EINVAL
// CHECK:      mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by memalign at {{.*}}memalign.c:25:16 (main)
// CHECK-NEXT:   freed by free at {{.*}}memalign.c:31:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}memalign.c:33:5 (main)
// CHECK: mdebug: SUMMARY: 2 errors (1 double free, 1 invalid allocation alignment), 0 bytes leaked in 0 blocks
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: aligned: 17 of 17, memalign(0) a block, memalign(48) NULL, errno EINVAL
// CLEAN-NOT: mdebug
