// Adapted from compiler-rt test/asan/TestCases/use-after-free-right.cpp (a write to the only byte of a freed 1-byte block).
// EXPECT: - use after free at 12
// EXPECT: clean clean
#include <stdlib.h>

int main(int argc, char **argv) {
  volatile char *x = (char *)malloc(sizeof(char));
  if (argc > 1)
    *x = 42;
  free((void *)x);
  if (argc == 1)
    *x = 42;
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: use after free in
// CHECK-NOT: *** ***
// CHECK: use-after-free-right.cpp:12:
// CLEAN-NOT: mdebug
