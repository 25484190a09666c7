// Proves: a line of the suppressions file that is not `leak:PATTERN` is
// echoed escaped: a terminal escape sequence, a tab, a backslash and a
// carriage return reach the output as \x1b, \t, \\ and \r, never as the
// bytes themselves. The clean run's file has only the good line: no
// message, no report, exit status 0.
// RUN: %python -c "import sys; sys.stdout.write('leak:lose_cache\n\x1b[2J\x1b]0;owned\x07\there\\\\x\r\n')" > %t.supp
// RUN: echo "leak:lose_cache" > %t.good.supp
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=suppressions=%t.supp %t 2>&1 | %FileCheck %s -DSUPP=%t.supp
// RUN: env MDEBUG_OPTIONS=suppressions=%t.good.supp %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

static void lose_cache(void) {
  char *cache = malloc(90);
  memset(cache, 'k', 90);
}

int main(void) {
  lose_cache();
  return 0;
}
// CHECK: mdebug: [[SUPP]]: ignoring a line that is not leak:PATTERN: \x1b[2J\x1b]0;owned\x07\there\\x\r{{$}}
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
