// Proves: an instrumented shared library loaded with dlopen by an
// instrumented program shares the program's heap and checks: a block the
// library allocates is freed by the program cleanly, and when leaked it is
// reported once, with the library's own file:line:col site.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g -shared -fPIC %S/../../Inputs/instr_lib.c -o %t.dir/libinstr.so
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t %t.dir/libinstr.so 2>&1 | %FileCheck %s
// RUN: %t %t.dir/libinstr.so clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  char *(*make_name)(const char *) =
      (char *(*)(const char *))dlsym(lib, "lib_make_name");
  void (*release)(void *) = (void (*)(void *))dlsym(lib, "lib_release");
  char *name = make_name("program");
  fprintf(stderr, "name %s\n", name);
  char *mine = malloc(10);
  release(mine);
  if (argc > 2)
    free(name);
  return 0;
}
// CHECK: name program-lib
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 12 bytes leaked in 1 block
// CHECK-NEXT: 12 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}Inputs/instr_lib.c:9:16 (lib_make_name)
// CHECK-NEXT: +++ {{.*}} leaked block of size 12 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 12 bytes leaked in 1 block
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: name program-lib
// CLEAN-NOT: mdebug
