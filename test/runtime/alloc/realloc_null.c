// Proves: realloc(NULL, n) allocates a new n-byte block, charged to the
// realloc call site.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = realloc(NULL, 40);
  fprintf(stderr, "block %s, usable %zu\n", p ? "allocated" : "NULL",
          malloc_usable_size(p));
  if (argc > 1)
    free(p);
  return 0;
}
// CHECK: block allocated, usable 40
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 40 bytes leaked in 1 block
// CHECK-NEXT: 40 bytes in 1 block:
// CHECK-NEXT:   allocated by realloc at {{.*}}realloc_null.c:11:13 (main)
// CHECK: mdebug: SUMMARY: 0 errors, 40 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: block allocated, usable 40
// CLEAN-NOT: mdebug
