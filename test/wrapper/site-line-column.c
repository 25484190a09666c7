// Proves: a site carries file:line:column with or without -g; without -g the object has no debug sections (the wrapper gets locations from -Rpass=mdebug, which prints no remarks), with -g it has them.
// RUN: %mdebug_clang -c %s -o %t.nog.o 2>&1 | count 0
// RUN: llvm-readelf -S %t.nog.o | %FileCheck %s --check-prefix=NODEBUG
// RUN: %mdebug_clang %t.nog.o -o %t.nog
// RUN: %not %t.nog 2>&1 | %FileCheck %s
// RUN: %mdebug_clang -g -c %s -o %t.g.o 2>&1 | count 0
// RUN: llvm-readelf -S %t.g.o | %FileCheck %s --check-prefix=DEBUG
// RUN: %mdebug_clang %t.g.o -o %t.g
// RUN: %not %t.g 2>&1 | %FileCheck %s
// At -O2 too, where inlining could lose the location.
// RUN: %mdebug_clang -O2 %s -o %t.o2
// RUN: %not %t.o2 2>&1 | %FileCheck %s
// Clean case: no overflow, no report.
// RUN: %t.nog clean 2>&1 | count 0
#include <stdlib.h>
#include <string.h>

static char *make(void) { return malloc(10); }

int main(int argc, char **argv) {
  char *p = make();
  memset(p, 'x', argc > 1 ? 10 : 11);
  free(p);
  return 0;
}
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT: allocation[10] = 0x78 (expected 0xbb)
// CHECK-NEXT: allocated by malloc at {{.*}}site-line-column.c:18:34 (make)
// CHECK-NEXT: detected by free at {{.*}}site-line-column.c:23:3 (main)
// NODEBUG-NOT: .debug_
// DEBUG: .debug_info
// DEBUG: .debug_line
