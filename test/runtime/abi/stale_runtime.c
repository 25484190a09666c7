// Proves: an instrumented object linked against a runtime of another ABI
// version (one that defines every entry point it calls, but
// __mdebug_version_mismatch_check_v0) fails to link, and the only missing
// symbol is the version check; against the real runtime it links and runs.
// RUN: %clang -fplugin=%mdebugpass -c %s -o %t.o
// RUN: %clang -c %S/../../Inputs/stale_runtime.c -o %t.stale.o
// RUN: %not %clang %t.o %t.stale.o -o %t.stale 2>&1 | %FileCheck %s
// RUN: %clang %t.o -Wl,--whole-archive %mdebug_rt_a -Wl,--no-whole-archive -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(void) {
  char *p = malloc(4);
  free(p);
  return 0;
}
// CHECK-NOT: __mdebug_malloc
// CHECK-NOT: __mdebug_free
// CHECK: undefined reference to `__mdebug_version_mismatch_check_v7'
// CHECK-NOT: undefined reference
// CHECK: error: linker command failed
// CLEAN-NOT: mdebug
