// Proves: a shared library built with checked accesses calls the lookups
// and the failure path, which keep every register but r11, bound when it
// is loaded, through the GOT: not through the PLT, whose lazy resolver (run
// on a PLT entry's first call) keeps only the C convention's argument
// registers. A value the library keeps in r10 across its first checked
// read survives it, under lazy binding (the linker's default) too. (It
// did not: json-c's json_parse_uint64 wrote to a stale r10 and crashed.)
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -fmdebug-check-access -O2 -shared -fPIC -Wl,-z,lazy %S/Inputs/lazy_lib.c -o %t.dir/liblazy.so
// RUN: llvm-objdump -d %t.dir/liblazy.so | %FileCheck %s --check-prefix=CALLS
// RUN: %mdebug_clang -g %s -L%t.dir -llazy -Wl,-rpath,%t.dir -o %t
// RUN: env -u LD_BIND_NOW %t 2>&1 | %FileCheck %s
#include <stdio.h>

long through_r10(const int *p);

int main(void) {
  int on_stack = 42;
  printf("through_r10: %ld\n", through_r10(&on_stack));
  return 0;
}
// CALLS: <through_r10>:
// CALLS-NOT: <__mdebug_access_{{[a-z]+}}@plt>
// CALLS: callq *{{.*}}(%rip)
// CALLS-NOT: <__mdebug_access_{{[a-z]+}}@plt>
// CHECK: through_r10: 7042
// CHECK-NOT: mdebug
