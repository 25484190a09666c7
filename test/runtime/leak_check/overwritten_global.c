// Proves: a block is lost, and reported as a direct leak, when its only
// pointer (a global) is overwritten with another block's address, while
// the block the global now holds is reachable and not reported. The clean
// run frees the first block before overwriting the pointer.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

static char *current;

static void set_current(const char *text) { current = strdup(text); }

int main(int argc, char **argv) {
  set_current("the first value, lost when the global is overwritten");
  if (argc > 1)
    free(current);
  set_current("the second value");
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 53 bytes leaked in 1 block (1 direct, 0 indirect); 1 block (17 bytes) still reachable
// CHECK-NEXT: Direct leak of 53 bytes in 1 block:
// CHECK-NEXT:   allocated by strdup at {{.*}}overwritten_global.c:13:55 (set_current)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 53 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 53 bytes leaked in 1 block
// CLEAN-NOT: mdebug
