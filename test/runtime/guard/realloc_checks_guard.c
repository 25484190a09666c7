// Proves: realloc checks the guards of the block it replaces, and the
// report names realloc as the call that found the damage.
// RUN: %mdebug_clang -fno-mdebug-check-lib-calls -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *p = malloc(10);
  strcpy(p, argc == 1 ? "0123456789" : "012345678");
  p = realloc(p, 100);
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[10] = 0x00 (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}realloc_checks_guard.c:10:13 (main)
// CHECK-NEXT:   detected by realloc at {{.*}}realloc_checks_guard.c:12:7 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// (-fno-mdebug-check-lib-calls: the overflow is left to the guard: strcpy is not checked at the call.)
