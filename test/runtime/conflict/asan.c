// Proves: mdebug and AddressSanitizer are never combined silently: the
// wrapper refuses -fsanitize=address, and the runtime preloaded into an ASan
// program stops with a clear message instead of crashing. The clean case is
// the same program without ASan under the preloaded runtime.
// RUN: %not %mdebug_clang -fsanitize=address %s -o %t.wrapped 2>&1 | %FileCheck %s --check-prefix=WRAPPER
// RUN: %clang -fsanitize=address %s -o %t.asan
// RUN: sh -c 'LD_PRELOAD=%mdebug_rt_so %t.asan; test $? -eq 127' 2>&1 | %FileCheck %s --check-prefix=PRELOAD
// RUN: %clang %s -o %t.plain
// RUN: env LD_PRELOAD=%mdebug_rt_so %t.plain 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  free(malloc(16));
  puts("ran");
  return 0;
}
// WRAPPER: mdebug-clang: error: -fsanitize=address cannot be combined with mdebug: both replace malloc and free
// PRELOAD: mdebug: fatal: AddressSanitizer is in this process too; mdebug and ASan both replace malloc and cannot run together
// PRELOAD-NOT: ran
// CLEAN: ran
// CLEAN-NOT: mdebug
