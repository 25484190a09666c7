// Proves: calloc(n, size) whose product overflows is reported at its site as
// a calloc overflow (AddressSanitizer's calloc-overflow), naming both
// factors, then returns NULL with errno ENOMEM; the summary counts it and
// the run ends with mdebug's status. With allocator_may_return_null it is
// glibc's quiet NULL. The same request computed by hand as malloc(n * size)
// wraps to a tiny block, and the first write past it is caught by the rear
// guard.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %not %t wrap 2>&1 | %FileCheck %s --check-prefix=WRAP
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  size_t n = SIZE_MAX / 8 + 2; /* n * 8 wraps around to 8 */
  uint64_t *table;
  errno = 0;
  if (argc == 1)
    table = calloc(n, sizeof *table);
  else
    table = malloc(n * sizeof *table); /* the bug: unchecked multiply */
  fprintf(stderr, "table %s, errno %s\n", table ? "allocated" : "NULL",
          errno == ENOMEM ? "ENOMEM" : "0");
  if (table) {
    table[0] = 0;
    table[1] = UINT64_MAX;
    free(table);
  }
  return 0;
}
// CHECK:      mdebug: ERROR: calloc overflow in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 2305843009213693953 * 8 BYTES OVERFLOWS (calloc)
// CHECK-NEXT:   count * size (0x2000000000000001 * 0x8) cannot be represented in size_t
// CHECK-NEXT:   requested by calloc at {{.*}}calloc_overflow.c:22:13 (main)
// CHECK-NEXT:   calloc returns NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: table NULL, errno ENOMEM
// CHECK-NEXT: mdebug: SUMMARY: 1 error (1 calloc overflow), 0 bytes leaked in 0 blocks
// CHECK-NEXT: exit status: 23
// WRAP: table allocated, errno 0
// WRAP-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// WRAP-NEXT: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// WRAP-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 HAS A CORRUPTED REAR GUARD
// WRAP-NEXT:   allocation[8] = 0xff (expected 0xbb)
// WRAP-NEXT:   allocation[9] = 0xff (expected 0xbb)
// WRAP-NEXT:   allocation[10] = 0xff (expected 0xbb)
// WRAP-NEXT:   allocation[11] = 0xff (expected 0xbb)
// WRAP-NEXT:   allocation[12] = 0xff (expected 0xbb)
// WRAP-NEXT:   allocation[13] = 0xff (expected 0xbb)
// WRAP-NEXT:   allocation[14] = 0xff (expected 0xbb)
// WRAP-NEXT:   allocation[15] = 0xff (expected 0xbb)
// WRAP-NEXT:   allocated by malloc at {{.*}}calloc_overflow.c:24:13 (main)
// WRAP-NEXT:   detected by free at {{.*}}calloc_overflow.c:30:5 (main)
// WRAP: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: table NULL, errno ENOMEM
// CLEAN-NOT: mdebug
