// Proves: a block allocated by an instrumented shared library that is then
// dlclose'd is still reported as a leak at exit, still naming its site in
// the library, with a complete report and summary (the library's site
// descriptors are unmapped by then, so the report cannot simply read them).
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
  char *name = make_name("unloaded");
  if (argc > 2)
    free(name);
  dlclose(lib);
  fprintf(stderr, "library closed\n");
  return 0;
}
// CHECK: library closed
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 13 bytes leaked in 1 block
// CHECK-NEXT: 13 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}Inputs/instr_lib.c:9:16 (lib_make_name)
// CHECK-NEXT: +++ {{.*}} leaked block of size 13 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 13 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: library closed
// CLEAN-NOT: mdebug
