// Proves: free of a global is reported as an unknown pointer and the report
// names the module it points into, and, when the symbol is exported
// (-rdynamic), the symbol and offset too.
// RUN: %mdebug_clang -g -Wno-free-nonheap-object %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clang -g -Wno-free-nonheap-object -rdynamic %s -o %t.dyn
// RUN: %not %t.dyn 2>&1 | %FileCheck %s --check-prefix=SYMBOL
#include <stdlib.h>

char message_buffer[64];

int main(int argc, char **argv) {
  char *p = argc > 1 ? malloc(64) : message_buffer + 8;
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: unknown pointer in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION [[ADDR:0x[0-9a-f]+]] UNKNOWN POINTER (free)
// CHECK-NEXT:   [[ADDR]] points into the image of {{.*}}free_global.c.tmp{{$}}
// CHECK-NEXT:   detected by free at {{.*}}free_global.c:15:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 unknown pointer), 0 bytes leaked in 0 blocks
// SYMBOL: +++ ALLOCATION [[ADDR:0x[0-9a-f]+]] UNKNOWN POINTER (free)
// SYMBOL-NEXT:   [[ADDR]] points into {{.*}}free_global.c.tmp.dyn (message_buffer+8)
// SYMBOL-NEXT:   detected by free at {{.*}}free_global.c:15:3 (main)
// CLEAN-NOT: mdebug
