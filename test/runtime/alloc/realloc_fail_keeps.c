// Proves: a realloc that cannot be satisfied returns NULL with errno ENOMEM
// and leaves the old block valid and unchanged, so `p = realloc(p, n)` on
// failure leaks the old block, which is reported.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
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
// CHECK: realloc: NULL, errno ENOMEM, old block "still here"
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 32 bytes leaked in 1 block
// CHECK-NEXT: 32 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}realloc_fail_keeps.c:13:13 (main)
// CHECK: mdebug: SUMMARY: 0 errors, 32 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: realloc: NULL, errno ENOMEM, old block "still here"
// CLEAN-NOT: mdebug
