// Proves: a block whose only pointer is a global of a shared library loaded
// with dlopen (RTLD_LOCAL; built without mdebug, so it reaches malloc
// through the standard symbol) is not a leak while the library is loaded:
// its writable segments are roots too. The control run has the library
// clear its global, and the block is then reported at the return address
// in the library.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -g -shared -fPIC %S/../../Inputs/leak_check_lib.c -o %t.dir/liblcplain.so
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -ldl
// RUN: %t %t.dir/liblcplain.so 2>&1 | %FileCheck %s --allow-empty
// RUN: %not %t %t.dir/liblcplain.so drop 2>&1 | %FileCheck %s --check-prefix=CONTROL
#include <dlfcn.h>
#include <stdio.h>

#include "leak_check_util.h"

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  ((void (*)(size_t))dlsym(lib, "lc_keep_global"))(104);
  if (argc > 2)
    ((void (*)(void))dlsym(lib, "lc_drop_global"))();
  scrub_stack();
  return 0;
}
// CHECK-NOT: mdebug
// CONTROL: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CONTROL-NEXT: mdebug: 104 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CONTROL-NEXT: Direct leak of 104 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in lc_keep_global{{[+ ].*}} ({{.*}}.dir/liblcplain.so)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 104 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CONTROL-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CONTROL-NEXT: mdebug: SUMMARY: 0 errors, 104 bytes leaked in 1 block
