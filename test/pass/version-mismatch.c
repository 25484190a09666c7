// Proves: the plugin loaded into a clang or opt of another LLVM major version stops with one error naming both versions and the compiler to use, at each door (-fplugin=, -fpass-plugin=, opt -load-pass-plugin=, and mdebug-clang driving that clang), instead of crashing or quietly compiling uninstrumented.
// REQUIRES: other-llvm
// RUN: rm -f %t.o
// RUN: %not %other_clang -fplugin=%mdebugpass -c %s -o %t.o 2>&1 | %FileCheck %s -DBUILT=%llvm_major -DHOST=%other_llvm_major
// RUN: %not ls %t.o
// RUN: %not %other_clang -fpass-plugin=%mdebugpass -c %s -o %t.o 2>&1 | %FileCheck %s -DBUILT=%llvm_major -DHOST=%other_llvm_major
// RUN: %other_clang -S -emit-llvm %s -o %t.ll
// RUN: %not %other_opt -load-pass-plugin=%mdebugpass -passes=mdebug -disable-output %t.ll 2>&1 | %FileCheck %s --check-prefix=OPT -DBUILT=%llvm_major -DHOST=%other_llvm_major
// RUN: %not env MDEBUG_CLANG=%other_clang %mdebug_clang %s -o %t 2>&1 | %FileCheck %s -DBUILT=%llvm_major -DHOST=%other_llvm_major
// Clean case: the clang it was built for instruments the call.
// RUN: %clang -fplugin=%mdebugpass -c %s -o %t.o 2>&1 | count 0
// RUN: llvm-nm %t.o | %FileCheck %s --check-prefix=CLEAN
#include <stdlib.h>

int main(void) {
  free(malloc(1));
  return 0;
}
// CHECK: mdebug: error: {{.*}}/libmdebugpass.so was built for LLVM [[BUILT]] but {{.*}}/clang{{[-0-9]*}} uses LLVM [[HOST]]; use the LLVM [[BUILT]] tools ({{.*}}clang) or rebuild mdebug against LLVM [[HOST]] (cmake -DLLVM_DIR=/usr/lib/llvm-[[HOST]]/lib/cmake/llvm)
// CHECK-NOT: Stack dump
// OPT: mdebug: error: {{.*}}/libmdebugpass.so was built for LLVM [[BUILT]] but {{.*}}/opt uses LLVM [[HOST]];
// CLEAN: U __mdebug_malloc
