// Proves: -### passes through: clang prints the commands it would run, which carry the plugin when compiling and the runtime when linking, and runs none of them (no object, no program, no report).
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %mdebug_clang -### %s -o prog 2>&1 | %FileCheck %s
// RUN: %not ls prog
// RUN: %mdebug_clang -### -c %s -o obj.o 2>&1 | %FileCheck %s --check-prefix=COMPILE
// RUN: %not ls obj.o
// Clean case: without -### the same command builds the program.
// RUN: %mdebug_clang %s -o prog
// RUN: ./prog
#include <stdlib.h>

int main(void) {
  free(malloc(1));
  return 0;
}
// CHECK: "-cc1"
// CHECK-SAME: "-load" "{{[^"]*}}/lib/libmdebugpass.so"
// CHECK-SAME: "-fpass-plugin={{[^"]*}}/lib/libmdebugpass.so"
// CHECK: "--whole-archive" "{{[^"]*}}/lib/libmdebug-rt.a" "--no-whole-archive"
// COMPILE: "-cc1"
// COMPILE-SAME: "-load" "{{[^"]*}}/lib/libmdebugpass.so"
// COMPILE-NOT: libmdebug-rt
