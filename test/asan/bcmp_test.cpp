// Adapted from compiler-rt test/asan/TestCases/Posix/bcmp_test.cpp (bcmp of 5 bytes of two 4-byte arrays that differ at the first byte; heap blocks here, stack arrays in the original).
// EXPECT: - heap buffer overflow at 13
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *a1 = (char *)malloc(4);
  char *a2 = (char *)malloc(4);
  a1[0] = (char)argc; a1[1] = 2; a1[2] = 3; a1[3] = 4;
  a2[0] = 1; a2[1] = (char)(2 * argc); a2[2] = 3; a2[3] = 4;
  int n = argc > 1 ? 4 : 4 + argc;
  int res = bcmp(a1, a2, n); // BOOM
  free(a1);
  free(a2);
  return res == 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: bcmp_test.cpp:13:
// CLEAN-NOT: mdebug
