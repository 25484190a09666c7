// Proves: aligned_alloc with an alignment that is not a power of two (24,
// and 0) is reported at its site as an invalid aligned_alloc alignment
// (AddressSanitizer's invalid-aligned-alloc-alignment) and refused with NULL
// and errno EINVAL, as glibc 2.38 refuses it; the run ends with mdebug's
// status. With allocator_may_return_null the refusals are quiet.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static const size_t bad[] = {24, 0};
  for (int i = 0; i < 2; i++) {
    errno = 0;
    void *p = aligned_alloc(bad[i], 48);
    fprintf(stderr, "aligned_alloc(%zu, 48): %s, errno %s\n", bad[i],
            p ? "a block" : "NULL", errno == EINVAL ? "EINVAL" : "?");
    free(p);
  }
  return 0;
}
// CHECK:      mdebug: ERROR: invalid aligned_alloc alignment in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST WITH ALIGNMENT 24 INVALID (aligned_alloc)
// CHECK-NEXT:   alignment 24 (for 48 bytes) is not a power of two
// CHECK-NEXT:   requested by aligned_alloc at {{.*}}aligned_alloc_alignment.c:17:15 (main)
// CHECK-NEXT:   aligned_alloc returns NULL, errno EINVAL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: aligned_alloc(24, 48): NULL, errno EINVAL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: invalid aligned_alloc alignment in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST WITH ALIGNMENT 0 INVALID (aligned_alloc)
// CHECK-NEXT:   alignment 0 (for 48 bytes) is not a power of two
// CHECK-NEXT:   requested by aligned_alloc at {{.*}}aligned_alloc_alignment.c:17:15 (main)
// CHECK-NEXT:   aligned_alloc returns NULL, errno EINVAL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: aligned_alloc(0, 48): NULL, errno EINVAL
// CHECK-NEXT: mdebug: SUMMARY: 2 errors (2 invalid aligned_alloc alignment), 0 bytes leaked in 0 blocks
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: aligned_alloc(24, 48): NULL, errno EINVAL
// CLEAN-NEXT: aligned_alloc(0, 48): NULL, errno EINVAL
// CLEAN-NOT: mdebug
