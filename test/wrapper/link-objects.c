// Proves: linking only objects adds the runtime and nothing meant for compiling, so even -Werror gives no "argument unused during compilation" and no output at all.
// RUN: %mdebug_clang -c %s -o %t.o
// RUN: %mdebug_clang -Werror %t.o -o %t 2>&1 | count 0
// RUN: env MDEBUG_WRAPPER_VERBOSE=1 %mdebug_clang %t.o -o %t 2>&1 | %FileCheck %s --check-prefix=CMD
// RUN: llvm-nm %t | %FileCheck %s --check-prefix=NM
// RUN: %not %t 2>&1 | %FileCheck %s
// Clean case: the linked program runs silently when it frees its block.
// RUN: %t clean 2>&1 | count 0
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(8);
  if (argc > 1)
    free(p);
  return 0;
}
// CMD: mdebug-clang: {{[^ ]*}}clang{{[^ ]*}} {{[^ ]*}}.o -o {{[^ ]*}} {{.*}}-Wl,--whole-archive {{[^ ]*}}/libmdebug-rt.a -Wl,--no-whole-archive
// CMD-NOT: -fplugin
// NM-DAG: T __mdebug_malloc
// NM-DAG: T malloc
// CHECK: mdebug: 8 bytes leaked in 1 block
// CHECK: allocated by malloc at {{.*}}link-objects.c:12:13 (main)
