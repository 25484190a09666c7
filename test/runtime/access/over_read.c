// Proves: a read just past a block's end, in its slot's slack (which guards
// and fills never see: nothing is written there), is reported at the read
// as a heap buffer overflow: read, size, address, how far past the end, the
// site of the read and of the allocation. A loop that reads past the end on
// every pass reports once (each instruction reports once). At -O0 and -O2
// alike; the clean twin stops at the end.
// RUN: %mdebug_clang -fmdebug-check-access -O0 -g %s -o %t0
// RUN: %not %t0 2>&1 | %FileCheck %s
// RUN: %t0 clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clang -fmdebug-check-access -O2 -g %s -o %t2
// RUN: %not %t2 2>&1 | %FileCheck %s
// RUN: %t2 clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

__attribute__((noinline)) int sum(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

int main(int argc, char **argv) {
  int *v = calloc(10, sizeof(int));
  int s = 0;
  for (int round = 0; round < 3; round++)
    s += sum(v, argc > 1 ? 10 : 11);
  free(v);
  return s;
}
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 40 READ PAST ITS END
// CHECK-NEXT:   read of size 4 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// CHECK-NEXT:   read at {{.*}}over_read.c:18:10 (sum)
// CHECK-NEXT:   allocated by calloc at {{.*}}over_read.c:23:12 (main)
// CHECK-NEXT: *** ***
// CHECK-NOT: mdebug: ERROR
// CHECK: mdebug: SUMMARY: 1 error (1 heap buffer overflow), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
