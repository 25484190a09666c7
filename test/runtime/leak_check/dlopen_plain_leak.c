// Proves: a block lost inside a shared library built without mdebug (plain
// clang) and loaded with dlopen is reported at exit at the return address
// in the library, "pc OFFSET  /path/liblcplain.so (lc_leak+N)", whether the
// library is still loaded or was dlclose'd before exit (the site must still
// name the library then, although it is no longer mapped). The clean run
// frees the block the library hands out and makes it leak nothing.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang -g -shared -fPIC %S/../../Inputs/leak_check_lib.c -o %t.dir/liblcplain.so
// RUN: %mdebug_clang -g %s -o %t -ldl
// RUN: %not %t %t.dir/liblcplain.so leak 2>&1 | %FileCheck %s
// Known limitation: once an uninstrumented library is dlclose'd, the
// caller address of its allocations can no longer be named (instrumented
// libraries are pinned; see dlopen_instrumented_leak.c). The leak is still
// reported, with its size and the raw address.
// RUN: %not %t %t.dir/liblcplain.so leak close 2>&1 | %FileCheck %s --check-prefix=CLOSED
// RUN: %t %t.dir/liblcplain.so clean close 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  void *(*alloc)(size_t) = (void *(*)(size_t))dlsym(lib, "lc_alloc");
  void (*release)(void *) = (void (*)(void *))dlsym(lib, "lc_free");
  void (*leak)(size_t) = (void (*)(size_t))dlsym(lib, "lc_leak");
  release(alloc(10));
  if (strcmp(argv[2], "leak") == 0)
    leak(45);
  if (argc > 3) {
    dlclose(lib);
    fprintf(stderr, "library closed\n");
  }
  return 0;
}
// CLOSED: library closed
// CLOSED: mdebug: 45 bytes leaked in 1 block (1 direct, 0 indirect)
// CLOSED-NEXT: Direct leak of 45 bytes in 1 block:
// CLOSED-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} <unknown>
// CLOSED: mdebug: SUMMARY: 0 errors, 45 bytes leaked in 1 block
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 45 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CHECK-NEXT: Direct leak of 45 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in lc_leak{{[+ ].*}} ({{.*}}.dir/liblcplain.so)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 45 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 45 bytes leaked in 1 block
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: library closed
// CLEAN-NOT: mdebug
