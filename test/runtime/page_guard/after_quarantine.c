// Proves: a page-guarded block's pages stay inaccessible after the
// free_track quarantine lets it go (its slot waits behind thousands of
// others before it is reused), and without any quarantine at all: a read
// through a dangling pointer still faults and is reported as a use after
// free with the block's allocation and free sites.
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py env "MDEBUG_OPTIONS=page_guard free_track=2" %t 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py env "MDEBUG_OPTIONS=none page_guard" %t 2>&1 | %FileCheck %s
// RUN: env "MDEBUG_OPTIONS=page_guard free_track=2" %t clean 2>&1 | count 0
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int *stale = malloc(4 * sizeof(int));
  stale[2] = 7;
  free(stale);
  for (int i = 0; i < 1000; i++)
    free(malloc(16));
  if (argc > 1)
    return 0;
  fprintf(stderr, "reading\n");
  return stale[2];
}
// CHECK: reading
// CHECK-NEXT: ***
// CHECK-NEXT: mdebug: ERROR: use after free in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 USED AFTER FREE (read)
// CHECK-NEXT:   read at 0x{{[0-9a-f]+}}: 8 bytes inside the freed block
// CHECK-NEXT:   allocated by malloc at {{.*}}after_quarantine.c:14:16 (main)
// CHECK-NEXT:   freed by free at {{.*}}after_quarantine.c:16:3 (main)
// CHECK: killed by signal 11
