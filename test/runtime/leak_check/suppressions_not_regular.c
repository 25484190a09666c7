// Proves: a suppressions file that is a directory or a FIFO is refused with
// one line, "mdebug: the suppressions file PATH is not a regular file; no
// leak is suppressed" (a FIFO with no writer does not hang the check), and
// every leak is then reported. The clean run names a regular file, which
// suppresses the leak: no message, no report, exit status 0.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/supp.d && mkfifo %t.dir/fifo
// RUN: echo "leak:lose_config" > %t.dir/good.supp
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not env MDEBUG_OPTIONS=suppressions=%t.dir/supp.d %t 2>&1 | %FileCheck %s -DPATH=%t.dir/supp.d
// RUN: %not env MDEBUG_OPTIONS=suppressions=%t.dir/fifo %t 2>&1 | %FileCheck %s -DPATH=%t.dir/fifo
// RUN: env MDEBUG_OPTIONS=suppressions=%t.dir/good.supp %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
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
// CHECK: mdebug: the suppressions file [[PATH]] is not a regular file; no leak is suppressed
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 70 bytes leaked in 1 block (1 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 70 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}suppressions_not_regular.c:16:18 (lose_config)
// CHECK: mdebug: SUMMARY: 0 errors, 70 bytes leaked in 1 block
// CLEAN-NOT: mdebug
