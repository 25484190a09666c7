// Proves: a suppressions file that cannot be read is named in one line,
// "mdebug: cannot read the suppressions file PATH; no leak is suppressed",
// and every leak is then reported. The clean run has the file, which
// suppresses the leak: no report, exit status 0.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not env MDEBUG_OPTIONS=suppressions=%t.dir/missing.supp %t 2>&1 | %FileCheck %s -DDIR=%t.dir
// RUN: echo "leak:lose_config" > %t.dir/missing.supp
// RUN: env MDEBUG_OPTIONS=suppressions=%t.dir/missing.supp %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
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
// CHECK: mdebug: cannot read the suppressions file [[DIR]]/missing.supp; no leak is suppressed
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 70 bytes leaked in 1 block (1 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 70 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}suppressions_missing.c:14:18 (lose_config)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 70 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 70 bytes leaked in 1 block
// CLEAN-NOT: mdebug
