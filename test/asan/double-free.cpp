// Adapted from compiler-rt test/asan/TestCases/double-free.cpp (a malloc block freed twice).
// EXPECT: - double free at 13
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *x = (char *)malloc(10 * sizeof(char));
  memset(x, 0, 10);
  int res = x[argc];
  free(x);
  if (argc == 1)
    free(x + argc - 1); // BOOM
  return res;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: double free in
// CHECK-NOT: *** ***
// CHECK: double-free.cpp:13:
// CLEAN-NOT: mdebug
