// Adapted from compiler-rt test/asan/TestCases/use-after-free.cpp (a read 5 bytes into a freed 10-byte malloc block).
// EXPECT: - use after free at 15
// EXPECT: clean clean
#include <stdlib.h>

int main(int argc, char **argv) {
  char *x = (char *)malloc(10 * sizeof(char));
  x[5] = 0;
  if (argc > 1) {
    int r = x[5];
    free(x);
    return r;
  }
  free(x);
  return x[5];
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: use after free in
// CHECK-NOT: *** ***
// CHECK: use-after-free.cpp:15:
// CLEAN-NOT: mdebug
