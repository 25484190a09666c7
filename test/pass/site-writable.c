// Proves: site descriptors are writable data, as the runtime needs to store a site's origin id in it (origin_id, mdebug/site.h): the IR keeps them `global` after -O2 (GlobalOpt does not make them constant), and section "mdebug_sites" is allocated and writable (WA) in non-PIC and PIC objects at -O0 and -O2; a PIE linked with -z relro -z now runs, its runtime having written into them. Clean case: without the plugin there is no such section.
// RUN: %clang -fplugin=%mdebugpass -O2 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=IR
// RUN: %clang -fplugin=%mdebugpass -O2 -fno-pic -c %s -o %t.o
// RUN: llvm-readelf -S %t.o | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -O0 -fno-pic -c %s -o %t.o
// RUN: llvm-readelf -S %t.o | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -O2 -fPIC -c %s -o %t.o
// RUN: llvm-readelf -S %t.o | %FileCheck %s
// RUN: %mdebug_clang -O2 -fPIE -pie -Wl,-z,relro,-z,now %s -o %t
// RUN: %t | %FileCheck %s --check-prefix=RAN
// RUN: %clang -O2 -c %s -o %t.plain.o
// RUN: llvm-readelf -S %t.plain.o | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>

// IR: @{{__mdebug_site[.0-9]*}} = private global {{.*}}, section "mdebug_sites", align 8
// IR-NOT: private constant {{.*}} section "mdebug_sites"
// CHECK: mdebug_sites PROGBITS {{[0-9a-f]+ [0-9a-f]+ [0-9a-f]+ [0-9a-f]+}} WA
// RAN: done
// CLEAN-NOT: mdebug_sites
int main(void) {
  volatile char *p = malloc(8);
  p[0] = 1;
  free((void *)p);
  puts("done");
  return 0;
}
