// Proves: the access checks work across -flto (full and thin): the
// instrumentation is made in the compile step, the link step optimises the
// checked code (and inlines across modules) without losing a check or its
// site. Compile and link apart, as build systems do; the clean twin reads
// inside the block.
// RUN: %mdebug_clang -fmdebug-check-access -O2 -flto -g -c %s -o %t.o
// RUN: %mdebug_clang -fmdebug-check-access -O2 -flto -g -DHELPER -c %s -o %t.helper.o
// RUN: %mdebug_clang -O2 -flto %t.o %t.helper.o -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clang -fmdebug-check-access -O2 -flto=thin -g -c %s -o %t.thin.o
// RUN: %mdebug_clang -fmdebug-check-access -O2 -flto=thin -g -DHELPER -c %s -o %t.thin.helper.o
// RUN: %mdebug_clang -O2 -flto=thin %t.thin.o %t.thin.helper.o -o %t.thin
// RUN: %not %t.thin 2>&1 | %FileCheck %s
#include <stdlib.h>

int last(const int *v, int n);

#ifdef HELPER
int last(const int *v, int n) { return v[n]; }
#else
int main(int argc, char **argv) {
  int *v = calloc(6, sizeof(int));
  int r = last(v, argc > 1 ? 5 : 6);
  free(v);
  return r;
}
#endif
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 READ PAST ITS END
// CHECK-NEXT:   read of size 4 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// CHECK-NEXT:   read at {{.*}}lto.c:20:40 (last)
// CHECK-NEXT:   allocated by calloc at {{.*}}lto.c:23:12 (main)
// CLEAN-NOT: mdebug
