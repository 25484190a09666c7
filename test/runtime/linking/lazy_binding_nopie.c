// Proves: a program built without PIE and linked with libmdebug-rt.so (a
// hand-made link: mdebug-clang links the static runtime into executables)
// calls the lookups and the failure path, which keep every register but
// r11, through the GOT, bound at load, not through lazily bound PLT
// entries: a value kept in r10 across the first checked read survives it.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -fmdebug-check-access -O2 -fno-pie -c %S/Inputs/lazy_lib.c -o %t.dir/lazy_lib.o
// RUN: %mdebug_clang -fno-pie -c %s -o %t.dir/main.o
// RUN: %clang -no-pie %t.dir/main.o %t.dir/lazy_lib.o -L%mdebug_libdir -lmdebug-rt -Wl,-rpath,%mdebug_libdir -Wl,-z,lazy -o %t
// RUN: llvm-readelf -r %t | %FileCheck %s --check-prefix=RELOCS
// RUN: env -u LD_BIND_NOW %t 2>&1 | %FileCheck %s
#include <stdio.h>

long through_r10(const int *p);

int main(void) {
  int on_stack = 42;
  printf("through_r10: %ld\n", through_r10(&on_stack));
  return 0;
}
// RELOCS-NOT: JUMP_SLOT {{.*}}__mdebug_access_
// RELOCS: GLOB_DAT {{.*}}__mdebug_access_miss
// RELOCS-NOT: JUMP_SLOT {{.*}}__mdebug_access_
// CHECK: through_r10: 7042
// CHECK-NOT: mdebug
