// Proves: reallocarray(p, n, size) whose product overflows is reported at
// its site as a reallocarray overflow (AddressSanitizer's
// reallocarray-overflow), then returns NULL with errno ENOMEM and leaves p
// alone (freed later without a word); the run ends with mdebug's status.
// With allocator_may_return_null it is glibc's quiet NULL. The same request
// computed by hand as realloc(p, n * size) wraps to 4 bytes, and the write
// past them is caught.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %not %t wrap 2>&1 | %FileCheck %s --check-prefix=WRAP
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int *values = malloc(4 * sizeof *values);
  size_t n = SIZE_MAX / 4 + 2; /* n * 4 wraps around to 4 */
  int *grown;
  errno = 0;
  if (argc == 1)
    grown = reallocarray(values, n, sizeof *values);
  else
    grown = realloc(values, n * sizeof *values); /* the bug */
  fprintf(stderr, "grown %s, errno %s\n", grown ? "allocated" : "NULL",
          errno == ENOMEM ? "ENOMEM" : "0");
  if (grown) {
    grown[0] = 1;
    grown[1] = 7;
    values = grown;
  }
  free(values);
  return 0;
}
// CHECK:      mdebug: ERROR: reallocarray overflow in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 4611686018427387905 * 4 BYTES OVERFLOWS (reallocarray)
// CHECK-NEXT:   count * size (0x4000000000000001 * 0x4) cannot be represented in size_t
// CHECK-NEXT:   requested by reallocarray at {{.*}}reallocarray_overflow.c:24:13 (main)
// CHECK-NEXT:   reallocarray returns NULL, errno ENOMEM; the block it was given is left as it was
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: grown NULL, errno ENOMEM
// CHECK-NEXT: mdebug: SUMMARY: 1 error (1 reallocarray overflow), 0 bytes leaked in 0 blocks
// CHECK-NEXT: exit status: 23
// WRAP: grown allocated, errno 0
// WRAP-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// WRAP-NEXT: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// WRAP-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 4 HAS A CORRUPTED REAR GUARD
// WRAP-NEXT:   allocation[4] = 0x07 (expected 0xbb)
// WRAP-NEXT:   allocation[5] = 0x00 (expected 0xbb)
// WRAP-NEXT:   allocation[6] = 0x00 (expected 0xbb)
// WRAP-NEXT:   allocation[7] = 0x00 (expected 0xbb)
// WRAP-NEXT:   allocated by realloc at {{.*}}reallocarray_overflow.c:26:13 (main)
// WRAP-NEXT:   detected by free at {{.*}}reallocarray_overflow.c:34:3 (main)
// WRAP: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: grown NULL, errno ENOMEM
// CLEAN-NOT: mdebug
