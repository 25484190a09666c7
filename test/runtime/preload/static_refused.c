// Proves: mdebug-run on a static executable says in one line that it runs
// it without mdebug, and runs it unchanged: its output and exit status are
// its own, and MDEBUG_OPTIONS has no effect (no runtime is there).
// RUN: %clang -static %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %mdebug_run --options verbose %t arg 2>&1 | %FileCheck %s
#include <stdio.h>
int main(int argc, char **argv) {
  printf("static program, %d args\n", argc);
  return 3;
}
// CHECK: mdebug-run: {{.*}}static_refused.c.tmp: it is statically linked: there is no dynamic linker to preload mdebug's runtime; running it without mdebug
// CHECK-NEXT: static program, 2 args
// CHECK-NEXT: exit status: 3
// CHECK-NOT: mdebug
