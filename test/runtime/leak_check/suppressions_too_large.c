// Proves: a suppressions file larger than 1 MiB is refused whole with one
// line, "mdebug: the suppressions file PATH is larger than 1048576 bytes; no
// leak is suppressed" (not cut at the limit, which would silently drop the
// lines after it), and every leak is then reported. The clean run's file is
// just under the limit, its last line suppresses the leak: no message, no
// report, exit status 0.
// RUN: %python -c "import sys; sys.stdout.write('#' * 1048559 + '\nleak:lose_config\n')" > %t.big.supp
// RUN: %python -c "import sys; sys.stdout.write('#' * 1048558 + '\nleak:lose_config\n')" > %t.fits.supp
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not env MDEBUG_OPTIONS=suppressions=%t.big.supp %t 2>&1 | %FileCheck %s -DPATH=%t.big.supp
// RUN: env MDEBUG_OPTIONS=suppressions=%t.fits.supp %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

static void lose_config(void) {
  char *config = malloc(70);
  memset(config, 'c', 70);
}

int main(void) {
  lose_config();
  return 0;
}
// CHECK: mdebug: the suppressions file [[PATH]] is larger than 1048576 bytes; no leak is suppressed
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 70 bytes leaked in 1 block (1 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 70 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}suppressions_too_large.c:16:18 (lose_config)
// CHECK: mdebug: SUMMARY: 0 errors, 70 bytes leaked in 1 block
// CLEAN-NOT: mdebug
