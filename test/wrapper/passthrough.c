// Proves: -S, -E, -fsyntax-only and -M pass through: the plugin still rewrites the code for -S, -E prints the preprocessed text, and none of them links or warns about the options the wrapper added.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %mdebug_clang -Werror -S %s -o %t.s 2>&1 | count 0
// RUN: %FileCheck %s --check-prefix=ASM < %t.s
// RUN: %mdebug_clang -Werror -E %s 2>%t.E.err | %FileCheck %s --check-prefix=PRE
// RUN: count 0 < %t.E.err
// RUN: %mdebug_clang -Werror -fsyntax-only %s 2>&1 | count 0
// The rule is read with continuation lines joined: clang breaks it after
// "target: \" when the checkout's path is long.
// RUN: %mdebug_clang -Werror -M %s | sed -e ':a' -e '/\\$/N' -e 's/\\\n//' -e 'ta' | %FileCheck %s --check-prefix=DEPS
// No link happened: no a.out, and the command run names no runtime.
// RUN: %not ls a.out
// RUN: env MDEBUG_WRAPPER_VERBOSE=1 %mdebug_clang -E %s -o %t.i 2>&1 | %FileCheck %s --check-prefix=NOLINK
// RUN: env MDEBUG_WRAPPER_VERBOSE=1 %mdebug_clang -S %s -o %t.s 2>&1 | %FileCheck %s --check-prefix=NOLINK
// Clean case: the same file linked does get the runtime.
// RUN: env MDEBUG_WRAPPER_VERBOSE=1 %mdebug_clang %s -o %t.exe 2>&1 | %FileCheck %s --check-prefix=LINK
// RUN: %t.exe
#include <stdlib.h>

#define WRAPPER_PASSTHROUGH_SIZE 24

int main(void) {
  char *p = malloc(WRAPPER_PASSTHROUGH_SIZE);
  free(p);
  return 0;
}
// ASM: call{{q?}} __mdebug_malloc
// ASM: .section mdebug_sites
// PRE: int main(void) {
// PRE-NEXT: char *p = malloc(24);
// DEPS: passthrough.o: {{.*}}passthrough.c
// DEPS: stdlib.h
// NOLINK: mdebug-clang: {{.*}}-fplugin={{[^ ]*}}/libmdebugpass.so
// NOLINK-NOT: libmdebug-rt
// LINK: mdebug-clang: {{.*}}-fplugin={{[^ ]*}}/libmdebugpass.so {{.*}}-Wl,--whole-archive {{[^ ]*}}/libmdebug-rt.a -Wl,--no-whole-archive
