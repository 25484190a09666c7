// Adapted from compiler-rt test/asan/TestCases/heap-overflow.cpp (a read one byte past a 10-byte malloc block).
// EXPECT: - heap buffer overflow at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *x = (char *)malloc(10 * sizeof(char));
  memset(x, 0, 10);
  int index = argc > 1 ? 9 : argc * 10;
  int res = x[index]; // BOOOM
  free(x);
  return res;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: heap-overflow.cpp:11:
// CLEAN-NOT: mdebug
