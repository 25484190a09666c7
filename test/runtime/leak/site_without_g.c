// Proves: sites are named without debug info: mdebug-clang without -g (even
// at -O2) still reports file:line:col, and a bare -fplugin= build without
// -g still reports the file and the function.
// RUN: %mdebug_clang -O2 %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %clang -fplugin=%mdebugpass -c %s -o %t.o
// RUN: %clang %t.o -Wl,--whole-archive %mdebug_rt_a -Wl,--no-whole-archive -o %t.bare
// RUN: %not %t.bare 2>&1 | %FileCheck %s --check-prefix=BARE
// RUN: %t.bare clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

static char *volatile keep;

int main(int argc, char **argv) {
  keep = malloc(19);
  if (argc > 1)
    free(keep);
  keep = NULL;
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 19 bytes leaked in 1 block
// CHECK-NEXT: 19 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}site_without_g.c:16:10 (main)
// CHECK: mdebug: SUMMARY: 0 errors, 19 bytes leaked in 1 block
// BARE: 19 bytes in 1 block:
// BARE-NEXT:   allocated by malloc at {{.*}}site_without_g.c (main)
// BARE: mdebug: SUMMARY: 0 errors, 19 bytes leaked in 1 block
// CLEAN-NOT: mdebug
