// Proves: a line of the suppressions file that is not `leak:PATTERN` (nor
// blank, nor a comment) is named, "mdebug: FILE: ignoring a line that is not
// leak:PATTERN: LINE", and only that line is ignored: the good lines still
// suppress. The clean run's file has only the good line: no message, no
// report, exit status 0.
// RUN: echo "leak:lose_cache" > %t.supp
// RUN: echo "lose_config" >> %t.supp
// RUN: echo "race:lose_config" >> %t.supp
// RUN: echo "leak:lose_cache" > %t.good.supp
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not env MDEBUG_OPTIONS=suppressions=%t.supp %t 2>&1 | %FileCheck %s -DSUPP=%t.supp
// RUN: env MDEBUG_OPTIONS=suppressions=%t.good.supp %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

static void lose_config(void) {
  char *config = malloc(70);
  memset(config, 'c', 70);
}

static void lose_cache(void) {
  char *cache = malloc(90);
  memset(cache, 'k', 90);
}

int main(int argc, char **argv) {
  if (argc == 1)
    lose_config();
  lose_cache();
  return 0;
}
// CHECK: mdebug: [[SUPP]]: ignoring a line that is not leak:PATTERN: lose_config
// CHECK-NEXT: mdebug: [[SUPP]]: ignoring a line that is not leak:PATTERN: race:lose_config
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 70 bytes leaked in 1 block (1 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 70 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}suppressions_bad_line.c:17:18 (lose_config)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 70 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 70 bytes leaked in 1 block
// CLEAN-NOT: mdebug
