// Proves: instrumented libraries in a program that neither links nor
// preloads the runtime (built with plain clang, the libraries linked in or
// dlopen'ed) leave it working: their copy of the runtime stays inactive,
// says once what to do to get checks, and passes every call to the
// program's malloc, so blocks cross between program and libraries (C and
// C++, libstdc++'s too) without a report or a crash (each side used to
// have its own heap); mdebug_check_leaks() from a library finds nothing.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g -shared -fPIC %S/Inputs/keeper.c -o %t.dir/libkeeper.so
// RUN: %mdebug_clangxx -g -shared -fPIC %S/Inputs/keeper_cxx.cpp -o %t.dir/libkeeper_cxx.so
// RUN: %clang -g %s -L%t.dir -lkeeper -lkeeper_cxx -Wl,-rpath,%t.dir -o %t.linked
// RUN: %clang -g -DDLOPEN %s -ldl -o %t.dlopen
// RUN: %t.linked 2>&1 | %FileCheck %s
// RUN: %t.dlopen %t.dir 2>&1 | %FileCheck %s
// Clean case: with the runtime preloaded, the same program is checked and
// clean.
// RUN: env LD_PRELOAD=%mdebug_rt_so %t.linked 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DLOPEN
#include <dlfcn.h>
static char *(*keeper_copy)(const char *);
static void (*keeper_free)(void *);
static long (*keeper_check_leaks)(void);
static void *(*keeper_new_ints)(size_t);
static void (*keeper_delete_ints)(void *);
static void *(*keeper_string)(size_t);
static void (*keeper_delete_string)(void *);

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

static void load(const char *dir) {
  void *c = open_lib(dir, "libkeeper.so");
  void *cxx = open_lib(dir, "libkeeper_cxx.so");
  *(void **)&keeper_copy = dlsym(c, "keeper_copy");
  *(void **)&keeper_free = dlsym(c, "keeper_free");
  *(void **)&keeper_check_leaks = dlsym(c, "keeper_check_leaks");
  *(void **)&keeper_new_ints = dlsym(cxx, "keeper_new_ints");
  *(void **)&keeper_delete_ints = dlsym(cxx, "keeper_delete_ints");
  *(void **)&keeper_string = dlsym(cxx, "keeper_string");
  *(void **)&keeper_delete_string = dlsym(cxx, "keeper_delete_string");
}
#else
char *keeper_copy(const char *s);
void keeper_free(void *p);
long keeper_check_leaks(void);
void *keeper_new_ints(size_t n);
void keeper_delete_ints(void *p);
void *keeper_string(size_t n);
void keeper_delete_string(void *p);
static void load(const char *dir) { (void)dir; }
#endif

int main(int argc, char **argv) {
  load(argv[1]);
  free(keeper_copy("copied by the library"));
  char *mine = malloc(40);
  strcpy(mine, "the program's");
  keeper_free(mine);
  keeper_delete_ints(keeper_new_ints(10));
  keeper_delete_string(keeper_string(300));
  printf("leaks found from the library: %ld\n", keeper_check_leaks());
  return 0;
}
// CHECK: mdebug: {{.*}}/libmdebug-rt.so: the program does not export mdebug's entry points (build it with mdebug-clang, or start it with LD_PRELOAD={{.*}}/libmdebug-rt.so): allocations by instrumented libraries go to the program's malloc, without their sites
// CHECK-NOT: mdebug
// CHECK: leaks found from the library: 0
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: leaks found from the library: 0
// CLEAN-NOT: mdebug
