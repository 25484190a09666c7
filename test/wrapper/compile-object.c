// Proves: -c gives an object whose allocation calls go to the __mdebug_* entry points (no plain malloc/free left) and that carries the site descriptors in section mdebug_sites.
// RUN: %mdebug_clang -c %s -o %t.o
// RUN: llvm-nm %t.o | %FileCheck %s --check-prefix=NM
// RUN: llvm-nm %t.o | %FileCheck %s --check-prefix=NM-NOLIBC
// RUN: llvm-readelf -S %t.o | %FileCheck %s --check-prefix=SECTIONS
// Clean case: the same file compiled by plain clang has neither.
// RUN: %clang -c %s -o %t.plain.o
// RUN: llvm-nm %t.plain.o | %FileCheck %s --check-prefix=PLAIN
// RUN: llvm-nm %t.plain.o | %FileCheck %s --check-prefix=PLAIN-NOMDEBUG
// RUN: llvm-readelf -S %t.plain.o | %FileCheck %s --check-prefix=PLAIN-SECTIONS
#include <stdlib.h>

int main(void) {
  char *p = malloc(16);
  free(p);
  return 0;
}
// NM-DAG: U __mdebug_free
// NM-DAG: U __mdebug_malloc
// NM-DAG: U __mdebug_version_mismatch_check_v7
// NM-NOLIBC-NOT: {{ }}malloc{{$}}
// NM-NOLIBC-NOT: {{ }}free{{$}}
// SECTIONS: {{\] mdebug_sites +PROGBITS}}
// PLAIN-DAG: U malloc
// PLAIN-DAG: U free
// PLAIN-NOMDEBUG-NOT: __mdebug
// PLAIN-SECTIONS-NOT: mdebug_sites
