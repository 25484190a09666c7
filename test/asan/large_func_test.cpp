// Adapted from compiler-rt test/asan/TestCases/large_func_test.cpp (a read-modify-write 12 bytes past new int[100], in the middle of a large function).
// EXPECT: - heap buffer overflow at 17
// EXPECT: clean clean
#include <stdlib.h>

__attribute__((noinline)) static void LargeFunction(int *x, int zero) {
  x[0]++;
  x[1]++;
  x[2]++;
  x[3]++;
  x[4]++;
  x[5]++;
  x[6]++;
  x[7]++;
  x[8]++;
  x[9]++;
  x[zero + 103]++; // we should report this exact line
  x[10]++;
  x[11]++;
  x[12]++;
  x[13]++;
  x[14]++;
  x[15]++;
  x[16]++;
  x[17]++;
  x[18]++;
  x[19]++;
}

int main(int argc, char **argv) {
  int *x = new int[100];
  LargeFunction(x, argc > 1 ? -100 : argc - 1);
  delete[] x;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: large_func_test.cpp:17:
// CLEAN-NOT: mdebug
