// Proves: reallocarray(p, n, size) whose product overflows returns NULL with
// errno ENOMEM and leaves p alone; the same request computed by hand as
// realloc(p, n * size) wraps to 4 bytes, and the write past them is caught.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
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
  if (argc > 1)
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
// CHECK: grown allocated, errno 0
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 4 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[4] = 0x07 (expected 0xbb)
// CHECK-NEXT:   allocation[5] = 0x00 (expected 0xbb)
// CHECK-NEXT:   allocation[6] = 0x00 (expected 0xbb)
// CHECK-NEXT:   allocation[7] = 0x00 (expected 0xbb)
// CHECK-NEXT:   allocated by realloc at {{.*}}reallocarray_overflow.c:21:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}reallocarray_overflow.c:29:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: grown NULL, errno ENOMEM
// CLEAN-NOT: mdebug
