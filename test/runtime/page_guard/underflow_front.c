// Proves: page_guard_front puts each block right after its inaccessible
// page, so a read just before a block faults and is reported as a heap
// buffer overflow before the block's start (with its site); by default
// (blocks at the end of their pages) the same read lands in the page's
// unused bytes and goes unseen. The run without the bug prints nothing.
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py env "MDEBUG_OPTIONS=page_guard page_guard_front" %t bug 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py env MDEBUG_OPTIONS=page_guard %t bug 2>&1 | %FileCheck %s --check-prefix=REAR
// RUN: env "MDEBUG_OPTIONS=page_guard page_guard_front" %t 2>&1 | count 0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int64_t *v = malloc(10 * sizeof(int64_t));
  volatile int64_t x = argc > 1 ? v[-1] : v[0];
  (void)x;
  if (argc > 1)
    fprintf(stderr, "no fault\n");
  free(v);
  return 0;
}
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}}000 SIZE 80 READ BEFORE ITS START
// CHECK-NEXT:   read at 0x{{[0-9a-f]+}}ff8: 8 bytes before the block
// CHECK-NEXT:   allocated by malloc at {{.*}}underflow_front.c:15:16 (main)
// CHECK-NEXT:   read by the instruction at pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}})
// CHECK: killed by signal 11
// REAR: no fault
// REAR-NEXT: exit status: 0
