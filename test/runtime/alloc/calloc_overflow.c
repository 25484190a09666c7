// Proves: calloc(n, size) whose product overflows returns NULL with errno
// ENOMEM; the same request computed by hand as malloc(n * size) wraps to a
// tiny block, and the first write past it is caught by the rear guard.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  size_t n = SIZE_MAX / 8 + 2; /* n * 8 wraps around to 8 */
  uint64_t *table;
  errno = 0;
  if (argc > 1)
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
// CHECK: table allocated, errno 0
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[8] = 0xff (expected 0xbb)
// CHECK-NEXT:   allocation[9] = 0xff (expected 0xbb)
// CHECK-NEXT:   allocation[10] = 0xff (expected 0xbb)
// CHECK-NEXT:   allocation[11] = 0xff (expected 0xbb)
// CHECK-NEXT:   allocation[12] = 0xff (expected 0xbb)
// CHECK-NEXT:   allocation[13] = 0xff (expected 0xbb)
// CHECK-NEXT:   allocation[14] = 0xff (expected 0xbb)
// CHECK-NEXT:   allocation[15] = 0xff (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}calloc_overflow.c:19:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}calloc_overflow.c:25:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: table NULL, errno ENOMEM
// CLEAN-NOT: mdebug
