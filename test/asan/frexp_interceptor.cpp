// Adapted from compiler-rt test/asan/TestCases/frexp_interceptor.cpp (frexp() storing its exponent into a freed block).
// EXPECT: - use after free at 13
// EXPECT: clean clean
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  double x = 3.14;
  int *exp = (int *)malloc(sizeof(int));
  if (argc == 1)
    free(exp);
  double y = frexp(x, exp);
  if (argc > 1)
    free(exp);
  return y > 1;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: use after free in
// CHECK-NOT: *** ***
// CHECK: frexp_interceptor.cpp:13:
// CLEAN-NOT: mdebug
