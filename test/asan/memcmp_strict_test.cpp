// Adapted from compiler-rt test/asan/TestCases/memcmp_strict_test.cpp (memcmp of 5 bytes over a 4-byte block that differs at the first byte; ASan's strict_memcmp, on by default, checks the whole range; the arrays are heap blocks here).
// EXPECT: - heap buffer overflow at 12
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *kFoo = strdup("foo");
  char *kFubar = strdup("fubar");
  size_t n = argc > 1 ? strlen(kFoo) : strlen(kFubar);
  int res = memcmp(kFoo, kFubar, n);
  printf("res: %d\n", res);
  free(kFoo);
  free(kFubar);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: memcmp_strict_test.cpp:12:
// CLEAN-NOT: mdebug
