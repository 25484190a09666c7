// Proves: without leak_track (MDEBUG_OPTIONS="none guard") a leaking program
// reports nothing and keeps its own exit status, 0; with the default options
// the same leak is reported.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="none guard" %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(77);
  p[0] = 0;
  if (argc > 1)
    free(p);
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 77 bytes leaked in 1 block
// CHECK-NEXT: 77 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}leak_track_off.c:11:13 (main)
// CHECK: mdebug: SUMMARY: 0 errors, 77 bytes leaked in 1 block
// CLEAN-NOT: mdebug
