// Adapted from compiler-rt test/asan/TestCases/Linux/bzero.cpp (bzero of 101 bytes over a 100-byte heap buffer; a stack buffer in the original).
// EXPECT: - heap buffer overflow at 10
// EXPECT: clean clean
#include <stdlib.h>
#include <strings.h>

int main(int argc, char *argv[]) {
  char *buf = (char *)malloc(100);
  // *& to suppress bzero-to-memset optimization.
  (*&bzero)(buf, argc > 1 ? 100 : 101);
  __asm__ volatile("" : : "r"(buf) : "memory"); free(buf); // the asm keeps the writes
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: bzero.cpp:10:
// CLEAN-NOT: mdebug
