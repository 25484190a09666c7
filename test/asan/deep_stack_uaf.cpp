// Adapted from compiler-rt test/asan/TestCases/deep_stack_uaf.cpp (a read of a block freed 200 calls deep).
// EXPECT: - use after free at 22
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

template <int depth> struct DeepFree {
  static void free(char *x) { DeepFree<depth - 1>::free(x); }
};

template <> struct DeepFree<0> {
  static void free(char *x) { ::free(x); }
};

int main(int argc, char **argv) {
  char *x = (char *)malloc(10);
  x[5] = 0;
  int r = argc > 1 ? x[5] : 0;
  DeepFree<200>::free(x);
  if (argc > 1)
    return r;
  return x[5];
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: use after free in
// CHECK-NOT: *** ***
// CHECK: deep_stack_uaf.cpp:22:
// CLEAN-NOT: mdebug
