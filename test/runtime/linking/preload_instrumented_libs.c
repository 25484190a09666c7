// Proves: a program built without mdebug, linked with two instrumented
// shared libraries and started with LD_PRELOAD=libmdebug-rt.so, runs one
// runtime, the preloaded one (also when it is another file than the one the
// libraries were linked with): options are printed once, blocks cross
// between program and libraries (C and C++) cleanly, a library's leak is
// reported once at its site, and mdebug_check_leaks() from a library
// reaches the runtime.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/other
// RUN: %mdebug_clang -g -shared -fPIC %S/Inputs/keeper.c -o %t.dir/libkeeper.so
// RUN: %mdebug_clangxx -g -shared -fPIC %S/Inputs/keeper_cxx.cpp -o %t.dir/libkeeper_cxx.so
// RUN: %clang -g %s -L%t.dir -lkeeper -lkeeper_cxx -Wl,-rpath,%t.dir -o %t
// RUN: cp %mdebug_rt_so %t.dir/other/
// RUN: env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS=verbose %t 2>&1 | %FileCheck %s
// RUN: env LD_PRELOAD=%t.dir/other/libmdebug-rt.so MDEBUG_OPTIONS=verbose %t 2>&1 | %FileCheck %s
// RUN: env LD_PRELOAD=%mdebug_rt_so %not %t leak 2>&1 | %FileCheck %s --check-prefix=LEAK
// Clean case: nothing from mdebug.
// RUN: env LD_PRELOAD=%mdebug_rt_so %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include "../../Inputs/leak_check_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *keeper_copy(const char *s);
void keeper_free(void *p);
long keeper_check_leaks(void);
void *keeper_new_ints(size_t n);
void keeper_delete_ints(void *p);
void *keeper_string(size_t n);
void keeper_delete_string(void *p);

static __attribute__((noinline)) void lose_one(void) {
  keeper_copy("leaked by the library");
  __asm__ volatile("" ::: "memory"); /* no tail call */
}

int main(int argc, char **argv) {
  free(keeper_copy("copied by the library"));
  char *mine = malloc(40);
  strcpy(mine, "the program's");
  keeper_free(mine);
  keeper_delete_ints(keeper_new_ints(10));
  keeper_delete_string(keeper_string(300));
  if (argc > 1)
    lose_one();
  scrub_stack(); /* no stale copy of the lost pointer below main's frame */
  printf("leaks found from the library: %ld\n", keeper_check_leaks());
  return 0;
}
// CHECK: mdebug: options in force:
// CHECK-NOT: mdebug
// CHECK: leaks found from the library: 0
// CHECK-NOT: mdebug
// LEAK: mdebug: ERROR: memory leak in
// LEAK: allocated by malloc at {{.*}}Inputs/keeper.c:13:13 (keeper_copy)
// LEAK-NOT: mdebug: ERROR
// LEAK: leaks found from the library: 1
// LEAK-NEXT: mdebug: SUMMARY: 0 errors, 22 bytes leaked in 1 block
// CLEAN-NOT: mdebug
// CLEAN: leaks found from the library: 0
// CLEAN-NOT: mdebug
