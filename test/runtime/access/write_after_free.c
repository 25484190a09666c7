// Proves: a write to a freed block is reported at the write, as a use after
// free (write), with the sites of the write, the allocation and the free;
// the write still happens, so the quarantine's fill check finds it again
// when the block leaves it. Without the quarantine (none) the block is still
// known as freed until it is reused. The clean twin writes before the free.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=none %not %t 2>&1 | %FileCheck %s --check-prefix=NO-QUARANTINE
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

__attribute__((noinline)) void set(int *p, int i) { p[i] = 7; }

int main(int argc, char **argv) {
  int *p = malloc(8 * sizeof(int));
  if (argc > 1)
    set(p, 3);
  free(p);
  if (argc == 1)
    set(p, 3);
  return 0;
}
// CHECK: mdebug: ERROR: use after free in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 USED AFTER FREE (write)
// CHECK-NEXT:   write of size 4 at 0x{{[0-9a-f]+}}: 12 bytes inside the freed block
// CHECK-NEXT:   written at {{.*}}write_after_free.c:12:58 (set)
// CHECK-NEXT:   allocated by malloc at {{.*}}write_after_free.c:15:12 (main)
// CHECK-NEXT:   freed by free at {{.*}}write_after_free.c:18:3 (main)
// CHECK: mdebug: ERROR: use after free in
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// CHECK: mdebug: SUMMARY: 2 errors (2 use after free), 0 bytes leaked in 0 blocks
// NO-QUARANTINE: mdebug: ERROR: use after free
// NO-QUARANTINE: freed by free at {{.*}}write_after_free.c:18:3 (main)
// NO-QUARANTINE: mdebug: SUMMARY: 1 error (1 use after free)
// CLEAN-NOT: mdebug
