// Adapted from compiler-rt test/asan/TestCases/Posix/strndup_oob_test.cpp (a read 1 byte past the 3-byte block strndup(s, 2) returned).
// EXPECT: - heap buffer overflow at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

char kString[] = "foo";

int main(int argc, char **argv) {
  char *copy = strndup(kString, 2);
  int x = copy[argc > 1 ? 2 : 2 + argc]; // BOOM
  free(copy);
  return x;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: strndup_oob_test.cpp:11:
// CLEAN-NOT: mdebug
