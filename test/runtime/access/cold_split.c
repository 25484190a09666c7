// Proves: with -fmdebug-check-access, mdebug-clang has codegen move the
// checks' cold blocks (here the failure call) out of the function, into
// .text.unlikely.<function>, which the linker puts together apart from the
// code that runs (their pages are never touched); the function's own
// section keeps the check's compare but no failure call; and a check that
// fails calls from the moved part and reports at the access as before.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -c -o %t.o
// RUN: llvm-objdump -d -r --section=.text.get %t.o | %FileCheck %s --check-prefix=HOT
// RUN: llvm-objdump -d -r --section=.text.unlikely.get %t.o | %FileCheck %s --check-prefix=COLD
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %t.o -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

__attribute__((noinline)) long get(const long *v, long i) { return v[i]; }

int main(int argc, char **argv) {
  long *v = calloc(4, sizeof *v);
  long r = get(v, argc > 1 ? 3 : 4); /* the dirty run reads v[4] */
  free(v);
  return (int)r;
}
// HOT: <get>:
// HOT: cmp
// HOT-NOT: __mdebug_access_fail
// COLD: <get.cold>:
// COLD: __mdebug_access_fail
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 READ PAST ITS END
// CHECK-NEXT:   read of size 8 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// CHECK-NEXT:   read at {{.*}}cold_split.c:15:{{[0-9]+}} (get)
// CLEAN-NOT: mdebug
