// Proves: a `leak:MODULE` line in the suppressions file hides the leaks made
// inside a shared library built without mdebug (matched against the path of
// the module holding the return address), while the program's own leaks are
// still reported. The clean run leaks only inside the library: no report,
// exit status 0.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -g -shared -fPIC %S/../../Inputs/leak_check_lib.c -o %t.dir/liblcplain.so
// RUN: %mdebug_clang -g %s -L%t.dir -llcplain -Wl,-rpath,%t.dir -o %t
// RUN: echo "leak:liblcplain.so" > %t.supp
// RUN: %not env MDEBUG_OPTIONS=suppressions=%t.supp %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=suppressions=%t.supp %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

void lc_leak(size_t n);

int main(int argc, char **argv) {
  lc_leak(150);
  lc_leak(151);
  char *mine = malloc(160);
  memset(mine, 'm', 160);
  if (argc > 1)
    free(mine);
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 160 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CHECK-NEXT: Direct leak of 160 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}suppress_module.c:20:16 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 160 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 160 bytes leaked in 1 block
// CLEAN-NOT: mdebug
