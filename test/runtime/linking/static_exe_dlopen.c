// Proves: a program built with mdebug-clang that dlopen's instrumented
// libraries (each needing libmdebug-rt.so, loaded RTLD_LOCAL) runs one
// runtime, the program's: options are printed once; the libraries' own
// calls, libstdc++'s operator new, and even the copy's own malloc and
// operator new reached through the library handle (dlsym(lib, "malloc"))
// all end in the program's heap, so blocks cross freely; such a call is
// charged to its caller in the program with the call's family
// (operator new stays operator new); mdebug_check_leaks() called from a
// library reaches the program's runtime and finds the block leaked through
// the copy's malloc.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g -shared -fPIC %S/Inputs/keeper.c -o %t.dir/libkeeper.so
// RUN: %mdebug_clangxx -g -shared -fPIC %S/Inputs/keeper_cxx.cpp -o %t.dir/libkeeper_cxx.so
// RUN: %mdebug_clang -g %s -ldl -o %t
// RUN: env MDEBUG_OPTIONS=verbose %t %t.dir 2>&1 | %FileCheck %s
// RUN: %not %t %t.dir mismatch 2>&1 | %FileCheck %s --check-prefix=MISMATCH
// RUN: %not %t %t.dir leak 2>&1 | %FileCheck %s --check-prefix=LEAK
// Clean case: nothing from mdebug.
// RUN: %t %t.dir 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include "../../Inputs/leak_check_util.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *open_lib(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    exit(2);
  }
  return lib;
}

static __attribute__((noinline)) void lose(void *(*lib_malloc)(size_t)) {
  lib_malloc(77);
  __asm__ volatile("" ::: "memory"); /* no tail call */
}

int main(int argc, char **argv) {
  void *c = open_lib(argv[1], "libkeeper.so");
  void *cxx = open_lib(argv[1], "libkeeper_cxx.so");
  char *(*copy)(const char *) = (char *(*)(const char *))dlsym(c, "keeper_copy");
  long (*check)(void) = (long (*)(void))dlsym(c, "keeper_check_leaks");
  void *(*new_ints)(size_t) = (void *(*)(size_t))dlsym(cxx, "keeper_new_ints");
  void (*delete_ints)(void *) = (void (*)(void *))dlsym(cxx, "keeper_delete_ints");
  void *(*string)(size_t) = (void *(*)(size_t))dlsym(cxx, "keeper_string");
  void (*delete_string)(void *) = (void (*)(void *))dlsym(cxx, "keeper_delete_string");
  /* The library's copy of the runtime, reached through its handle. */
  void *(*lib_malloc)(size_t) = (void *(*)(size_t))dlsym(cxx, "malloc");
  void (*lib_free)(void *) = (void (*)(void *))dlsym(cxx, "free");
  void *(*lib_new)(size_t) = (void *(*)(size_t))dlsym(cxx, "_Znwm");
  void (*lib_delete)(void *) = (void (*)(void *))dlsym(cxx, "_ZdlPv");

  char *s = copy("copied by the library");
  free(s);
  delete_ints(new_ints(8));
  delete_string(string(500));
  char *m = lib_malloc(64);
  strcpy(m, "from the copy's malloc");
  free(m);
  lib_free(malloc(32));
  if (argc > 2 && strcmp(argv[2], "mismatch") == 0)
    free(lib_new(24));
  else
    lib_delete(lib_new(24));
  if (argc > 2 && strcmp(argv[2], "leak") == 0)
    lose(lib_malloc);
  scrub_stack(); /* no stale copy of the lost pointer below main's frame */
  printf("leaks found from the library: %ld\n", check());
  return 0;
}
// CHECK: mdebug: options in force:
// CHECK-NOT: mdebug
// CHECK: leaks found from the library: 0
// CHECK-NOT: mdebug
// MISMATCH: mdebug: ERROR: alloc-dealloc mismatch in
// MISMATCH-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 ALLOCATED BY operator new RELEASED BY free
// MISMATCH-NEXT: allocated by operator new at pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}static_exe_dlopen.c.tmp){{$}}
// MISMATCH-NEXT: released by free at {{.*}}static_exe_dlopen.c:66:5 (main)
// MISMATCH: mdebug: SUMMARY: 1 error (1 alloc-dealloc mismatch), 0 bytes leaked in 0 blocks
// LEAK: mdebug: ERROR: memory leak in
// LEAK: allocated by malloc at pc 0x{{[0-9a-f]+}} in lose{{[+ ].*}} ({{.*}}static_exe_dlopen.c.tmp){{$}}
// LEAK-NOT: mdebug: ERROR
// LEAK: leaks found from the library: 1
// LEAK-NEXT: mdebug: SUMMARY: 0 errors, 77 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: leaks found from the library: 0
// CLEAN-NOT: mdebug
