// Proves: posix_memalign with a bad alignment (0, 3, 4, 24, 2^63+8: not a
// power of two multiple of sizeof(void *)) is reported at its site as an
// invalid posix_memalign alignment (AddressSanitizer's
// invalid-posix-memalign-alignment), returns EINVAL and leaves *memptr and
// errno unchanged; a program that frees *memptr anyway frees whatever was
// there before, here an already freed block, which is reported as a double
// free. With allocator_may_return_null the EINVALs are quiet.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  static const size_t bad[] = {0, 3, 4, 24, ((size_t)1 << 63) + 8};
  void *p = NULL;
  if (posix_memalign(&p, 64, 32) != 0)
    return 2;
  free(p);
  void *stale = p;
  for (int i = 0; i < 5; i++) {
    errno = 0;
    int rc = posix_memalign(&p, bad[i], 32);
    fprintf(stderr, "alignment %zu: %s, %s, errno %d\n", bad[i],
            rc == EINVAL ? "EINVAL" : "?",
            p == stale ? "unchanged" : "CHANGED", errno);
  }
  if (argc == 1)
    free(p);
  return 0;
}
// CHECK:      mdebug: ERROR: invalid posix_memalign alignment in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST WITH ALIGNMENT 0 INVALID (posix_memalign)
// CHECK-NEXT:   alignment 0 (for 32 bytes) is not a power of two multiple of sizeof(void *) (8)
// CHECK-NEXT:   requested by posix_memalign at {{.*}}posix_memalign_einval.c:24:14 (main)
// CHECK-NEXT:   posix_memalign returns EINVAL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: alignment 0: EINVAL, unchanged, errno 0
// CHECK:      mdebug: ERROR: invalid posix_memalign alignment in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST WITH ALIGNMENT 3 INVALID (posix_memalign)
// CHECK-NEXT:   alignment 3 (for 32 bytes) is not a power of two multiple of sizeof(void *) (8)
// CHECK-NEXT:   requested by posix_memalign at {{.*}}posix_memalign_einval.c:24:14 (main)
// CHECK-NEXT:   posix_memalign returns EINVAL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: alignment 3: EINVAL, unchanged, errno 0
// CHECK:      mdebug: ERROR: invalid posix_memalign alignment in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST WITH ALIGNMENT 4 INVALID (posix_memalign)
// CHECK-NEXT:   alignment 4 (for 32 bytes) is not a power of two multiple of sizeof(void *) (8)
// CHECK-NEXT:   requested by posix_memalign at {{.*}}posix_memalign_einval.c:24:14 (main)
// CHECK-NEXT:   posix_memalign returns EINVAL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: alignment 4: EINVAL, unchanged, errno 0
// CHECK:      mdebug: ERROR: invalid posix_memalign alignment in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST WITH ALIGNMENT 24 INVALID (posix_memalign)
// CHECK-NEXT:   alignment 24 (for 32 bytes) is not a power of two multiple of sizeof(void *) (8)
// CHECK-NEXT:   requested by posix_memalign at {{.*}}posix_memalign_einval.c:24:14 (main)
// CHECK-NEXT:   posix_memalign returns EINVAL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: alignment 24: EINVAL, unchanged, errno 0
// CHECK:      mdebug: ERROR: invalid posix_memalign alignment in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST WITH ALIGNMENT 9223372036854775816 INVALID (posix_memalign)
// CHECK-NEXT:   alignment 9223372036854775816 (for 32 bytes) is not a power of two multiple of sizeof(void *) (8)
// CHECK-NEXT:   requested by posix_memalign at {{.*}}posix_memalign_einval.c:24:14 (main)
// CHECK-NEXT:   posix_memalign returns EINVAL
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: alignment 9223372036854775816: EINVAL, unchanged, errno 0
// CHECK:      mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by posix_memalign at {{.*}}posix_memalign_einval.c:18:7 (main)
// CHECK-NEXT:   freed by free at {{.*}}posix_memalign_einval.c:20:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}posix_memalign_einval.c:30:5 (main)
// CHECK: mdebug: SUMMARY: 6 errors (1 double free, 5 invalid posix_memalign alignment), 0 bytes leaked in 0 blocks
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: alignment 0: EINVAL, unchanged, errno 0
// CLEAN-NEXT: alignment 3: EINVAL, unchanged, errno 0
// CLEAN-NEXT: alignment 4: EINVAL, unchanged, errno 0
// CLEAN-NEXT: alignment 24: EINVAL, unchanged, errno 0
// CLEAN-NEXT: alignment 9223372036854775816: EINVAL, unchanged, errno 0
// CLEAN-NOT: mdebug
