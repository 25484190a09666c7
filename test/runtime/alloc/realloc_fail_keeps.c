// Proves: a realloc that cannot be satisfied (a size over the maximum
// allocation size: reported at its site as too big) returns NULL with errno
// ENOMEM and leaves the old block valid and unchanged, so `p = realloc(p, n)`
// on failure leaks the old block, which is reported. With
// allocator_may_return_null the refusal is quiet.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *p = malloc(32);
  strcpy(p, "still here");
  errno = 0;
  char *q = realloc(p, (size_t)1 << 50);
  fprintf(stderr, "realloc: %s, errno %s, old block \"%s\"\n",
          q ? "a block" : "NULL", errno == ENOMEM ? "ENOMEM" : "?", p);
  if (argc == 1)
    p = q; /* the bug: the only pointer to the old block is lost */
  free(p);
  return 0;
}
// CHECK:      mdebug: ERROR: allocation size too big in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 1125899906842624 BYTES TOO BIG (realloc)
// CHECK-NEXT:   requested size 0x4000000000000 exceeds the maximum allocation size 0x10000000000 (1099511627776 bytes, max_allocation_size)
// CHECK-NEXT:   requested by realloc at {{.*}}realloc_fail_keeps.c:18:13 (main)
// CHECK-NEXT:   realloc returns NULL, errno ENOMEM; the block it was given is left as it was
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: realloc: NULL, errno ENOMEM, old block "still here"
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 32 bytes leaked in 1 block
// CHECK-NEXT: 32 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}realloc_fail_keeps.c:15:13 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 allocation size too big), 32 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: realloc: NULL, errno ENOMEM, old block "still here"
// CLEAN-NOT: mdebug
