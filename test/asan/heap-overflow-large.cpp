// Adapted from compiler-rt test/asan/TestCases/heap-overflow-large.cpp (a read of new int[5] at an index given on the command line, far past the block's end).
// EXPECT: 12 heap buffer overflow at 15
// EXPECT: 100 heap buffer overflow at 15
// EXPECT: 10000 heap buffer overflow at 15
// EXPECT: 4 clean
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char *argv[]) {
  fprintf(stderr, "main\n");
  int *x = new int[5];
  memset(x, 0, sizeof(x[0]) * 5);
  int index = atoi(argv[1]);
  unsigned res = x[index];
  delete[] x;
  return res % 10;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 12 2>&1 | %FileCheck %s --check-prefix=M-12
// RUN: %not %t 100 2>&1 | %FileCheck %s --check-prefix=M-100
// RUN: %not %t 10000 2>&1 | %FileCheck %s --check-prefix=M-10000
// RUN: %t 4 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-12: mdebug: ERROR: heap buffer overflow in
// M-12-NOT: *** ***
// M-12: heap-overflow-large.cpp:15:
// M-100: mdebug: ERROR: heap buffer overflow in
// M-100-NOT: *** ***
// M-100: heap-overflow-large.cpp:15:
// M-10000: mdebug: ERROR: heap buffer overflow in
// M-10000-NOT: *** ***
// M-10000: heap-overflow-large.cpp:15:
// CLEAN-NOT: mdebug
