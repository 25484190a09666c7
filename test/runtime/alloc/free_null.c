// Proves: free(NULL) is a no-op with no report, while freeing any other
// pointer mdebug never returned (here 0x10) is reported as unknown.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdint.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  void *p = argc > 1 ? NULL : (void *)(uintptr_t)0x10;
  for (int i = 0; i < 3; i++)
    free(NULL);
  free(p);
  return 0;
}
// CHECK: mdebug: ERROR: unknown pointer in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x10 UNKNOWN POINTER (free)
// CHECK-NEXT:   0x10 is not the start of any block mdebug allocated
// CHECK-NEXT:   detected by free at {{.*}}free_null.c:13:3 (main)
// CHECK-NOT: ERROR
// CHECK: mdebug: SUMMARY: 1 error (1 unknown pointer), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
