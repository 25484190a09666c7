// Proves: realloc of a freed block is reported as USED AFTER FREE (realloc)
// with the allocation, free and realloc sites, and returns NULL instead of
// touching the freed block.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(8);
  if (argc == 1)
    free(p);
  char *q = realloc(p, 64);
  fprintf(stderr, "realloc returned %s\n", q ? "a block" : "NULL");
  free(q);
  return 0;
}
// CHECK: mdebug: ERROR: use after free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 USED AFTER FREE (realloc)
// CHECK-NEXT:   allocated by malloc at {{.*}}realloc_after_free.c:11:13 (main)
// CHECK-NEXT:   freed by free at {{.*}}realloc_after_free.c:13:5 (main)
// CHECK-NEXT:   used by realloc at {{.*}}realloc_after_free.c:14:13 (main)
// CHECK: realloc returned NULL
// CHECK: mdebug: SUMMARY: 1 error (1 use after free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: realloc returned a block
// CLEAN-NOT: mdebug
