// Adapted from compiler-rt test/asan/TestCases/strncpy-overflow.cpp (strncpy of 10 bytes into a 9-byte malloc block).
// EXPECT: - heap buffer overflow at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *hello = (char *)malloc(6);
  strcpy(hello, "hello");
  char *short_buffer = (char *)malloc(9);
  strncpy(short_buffer, hello, argc > 1 ? 9 : 10); // BOOM
  int r = short_buffer[8];
  free(hello);
  free(short_buffer);
  return r;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: strncpy-overflow.cpp:11:
// CLEAN-NOT: mdebug
