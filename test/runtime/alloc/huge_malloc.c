// Proves: malloc of an impossible size ((size_t)1 << 50, SIZE_MAX) returns
// NULL with errno ENOMEM, and the failed request leaves nothing behind: only
// the real leak is counted.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  static const size_t sizes[] = {(size_t)1 << 50, SIZE_MAX};
  for (int i = 0; i < 2; i++) {
    errno = 0;
    void *p = malloc(sizes[i]);
    fprintf(stderr, "malloc(%#zx): %s, errno %s\n", sizes[i],
            p ? "a block" : "NULL", errno == ENOMEM ? "ENOMEM" : "?");
    free(p);
  }
  char *small = malloc(8);
  if (argc > 1)
    free(small);
  return 0;
}
// CHECK: malloc(0x4000000000000): NULL, errno ENOMEM
// CHECK-NEXT: malloc(0xffffffffffffffff): NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 8 bytes leaked in 1 block
// CHECK-NEXT: 8 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}huge_malloc.c:21:17 (main)
// CHECK: mdebug: SUMMARY: 0 errors, 8 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: malloc(0x4000000000000): NULL, errno ENOMEM
// CLEAN-NEXT: malloc(0xffffffffffffffff): NULL, errno ENOMEM
// CLEAN-NOT: mdebug
