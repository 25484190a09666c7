// Adapted from compiler-rt test/asan/TestCases/sanity_check_pure_c.c (a read of a freed malloc block, in C).
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
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: use after free in
// CHECK-NOT: *** ***
// CHECK: sanity_check_pure_c.c:15:
// CLEAN-NOT: mdebug
