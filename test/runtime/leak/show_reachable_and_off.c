// Proves: leak_show_reachable lists the blocks still reachable at exit by
// site (as notes: they are not leaks), and leak_check=0 turns the leak check
// off while the other default checks stay on.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=leak_show_reachable %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=leak_check=0 %t 2>&1 | %FileCheck %s --check-prefix=OFF --allow-empty
// RUN: env MDEBUG_OPTIONS=leak_check=0 %not %t double 2>&1 | %FileCheck %s --check-prefix=OFF-STILL-CHECKS
// RUN: env MDEBUG_OPTIONS=leak_check=2 %not %t 2>&1 | %FileCheck %s --check-prefix=BAD
#include <stdlib.h>

void *kept_small, *kept_large;

int main(int argc, char **argv) {
  kept_small = malloc(10);
  kept_large = malloc(20);
  char *lost = malloc(5);
  lost = NULL;
  if (argc > 1) {
    char *p = malloc(1);
    free(p);
    free(p);
  }
  return 0;
}
// CHECK: Direct leak of 5 bytes in 1 block:
// CHECK-NEXT: allocated by malloc at {{.*}}show_reachable_and_off.c:16:16 (main)
// CHECK: mdebug: still reachable at exit: 30 bytes in 2 blocks
// CHECK-NEXT: Still reachable: 20 bytes in 1 block allocated by malloc at {{.*}}show_reachable_and_off.c:15:16 (main)
// CHECK-NEXT: Still reachable: 10 bytes in 1 block allocated by malloc at {{.*}}show_reachable_and_off.c:14:16 (main)
// CHECK: mdebug: SUMMARY: 0 errors, 5 bytes leaked in 1 block
// OFF-NOT: mdebug
// OFF-STILL-CHECKS: DOUBLE FREE (free)
// OFF-STILL-CHECKS-NOT: Direct leak
// BAD: mdebug: MDEBUG_OPTIONS: bad value for option 'leak_check', value must be <= 1: 2; ignoring MDEBUG_OPTIONS (running with the defaults)
// BAD: Direct leak of 5 bytes in 1 block:
