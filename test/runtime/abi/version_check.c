// Proves: an object compiled with the mdebug plugin references the ABI
// version symbol, so linking it without the runtime fails at link time
// naming __mdebug_version_mismatch_check_v7; linked with the runtime it
// builds and runs cleanly.
// RUN: %clang -fplugin=%mdebugpass -c %s -o %t.o
// RUN: %not %clang %t.o -o %t.unlinked 2>&1 | %FileCheck %s
// RUN: %clang %t.o -Wl,--whole-archive %mdebug_rt_a -Wl,--no-whole-archive -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

int main(void) {
  char *p = malloc(4);
  free(p);
  return 0;
}
// CHECK: undefined reference to `__mdebug_version_mismatch_check_v7'
// CHECK: error: linker command failed
// CLEAN-NOT: mdebug
