// Proves: posix_memalign with a bad alignment (0, 3, 4, 24, 2^63+8) returns
// EINVAL and leaves *memptr unchanged; a program that frees *memptr anyway
// frees whatever was there before, here an already freed block, which is
// reported as a double free.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
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
    int rc = posix_memalign(&p, bad[i], 32);
    fprintf(stderr, "alignment %zu: %s, %s\n", bad[i],
            rc == EINVAL ? "EINVAL" : "?",
            p == stale ? "unchanged" : "CHANGED");
  }
  int rc = posix_memalign(&p, 24, 32);
  if (rc == 0 || argc == 1)
    free(p);
  return 0;
}
// CHECK: alignment 0: EINVAL, unchanged
// CHECK-NEXT: alignment 3: EINVAL, unchanged
// CHECK-NEXT: alignment 4: EINVAL, unchanged
// CHECK-NEXT: alignment 24: EINVAL, unchanged
// CHECK-NEXT: alignment 9223372036854775816: EINVAL, unchanged
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by posix_memalign at {{.*}}posix_memalign_einval.c:15:7 (main)
// CHECK-NEXT:   freed by free at {{.*}}posix_memalign_einval.c:17:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}posix_memalign_einval.c:27:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: alignment 0: EINVAL, unchanged
// CLEAN-NEXT: alignment 3: EINVAL, unchanged
// CLEAN-NEXT: alignment 4: EINVAL, unchanged
// CLEAN-NEXT: alignment 24: EINVAL, unchanged
// CLEAN-NEXT: alignment 9223372036854775816: EINVAL, unchanged
// CLEAN-NOT: mdebug
