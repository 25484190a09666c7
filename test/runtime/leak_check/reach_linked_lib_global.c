// Proves: a block whose only pointer is a global of a shared library the
// program is linked with (an instrumented one, the pointer in its .bss) is
// not a leak: the writable segments of every loaded module are roots. The
// control run has the library clear its global, and the block is then
// reported with its site in the library.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g -shared -fPIC %S/../../Inputs/leak_check_lib.c -o %t.dir/liblc.so
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -L%t.dir -llc -Wl,-rpath,%t.dir -o %t
// RUN: %t 2>&1 | %FileCheck %s --allow-empty
// RUN: %not %t drop 2>&1 | %FileCheck %s --check-prefix=CONTROL
#include <stddef.h>

#include "leak_check_util.h"

void lc_keep_global(size_t n);
void lc_drop_global(void);

int main(int argc, char **argv) {
  lc_keep_global(88);
  if (argc > 1)
    lc_drop_global();
  scrub_stack();
  return 0;
}
// CHECK-NOT: mdebug
// CONTROL: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CONTROL-NEXT: mdebug: 88 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CONTROL-NEXT: Direct leak of 88 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at {{.*}}Inputs/leak_check_lib.c:13:15 (lc_keep_global)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 88 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CONTROL-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CONTROL-NEXT: mdebug: SUMMARY: 0 errors, 88 bytes leaked in 1 block
