// Proves: arguments given in a response file (@file, as clang accepts and as build tools use for long command lines) are seen by the wrapper: -c in it means no runtime is appended (no warnings), and the sources in it are instrumented.
// RUN: echo '-c %s -o %t.o' > %t.rsp
// RUN: %mdebug_clang -Werror @%t.rsp 2>&1 | count 0
// RUN: llvm-nm %t.o | %FileCheck %s
// RUN: echo '%s -o %t' > %t.link.rsp
// RUN: %mdebug_clang @%t.link.rsp
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=LEAK
// Clean case: the same arguments on the command line.
// RUN: %mdebug_clang -Werror -c %s -o %t.direct.o 2>&1 | count 0
// RUN: llvm-nm %t.direct.o | %FileCheck %s
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(3);
  if (argc > 1)
    free(p);
  return 0;
}
// CHECK: U __mdebug_malloc
// LEAK: mdebug: 3 bytes leaked in 1 block
// LEAK: allocated by malloc at {{.*}}response-file.c:14:13 (main)
