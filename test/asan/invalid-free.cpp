// Adapted from compiler-rt test/asan/TestCases/invalid-free.cpp (free of a pointer 5 bytes inside a malloc block).
// EXPECT: - unknown pointer at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *x = (char *)malloc(10 * sizeof(char));
  memset(x, 0, 10);
  int res = x[argc];
  free(x + (argc > 1 ? 0 : 5)); // BOOM
  return res;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: unknown pointer in
// CHECK-NOT: *** ***
// CHECK: invalid-free.cpp:11:
// CLEAN-NOT: mdebug
