// Adapted from compiler-rt test/asan/TestCases/small_memcpy_test.cpp (a 64-byte memcpy into a heap block of the first argument's size; the original poisoned a stack array between the two arguments).
// EXPECT: 8,24 heap buffer overflow at 23
// EXPECT: 16,32 heap buffer overflow at 23
// EXPECT: 24,40 heap buffer overflow at 23
// EXPECT: 32,48 heap buffer overflow at 23
// EXPECT: 40,56 heap buffer overflow at 23
// EXPECT: 48,64 heap buffer overflow at 23
// EXPECT: 64,64 clean
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  assert(argc == 3);
  size_t poison_from = atoi(argv[1]);
  size_t poison_to = atoi(argv[2]);
  assert(poison_from <= poison_to);
  char *A1 = (char *)malloc(poison_from);
  char A2[64];
  memset(A2, 1, sizeof(A2));
  fprintf(stderr, "%zd %zd\n", poison_from, poison_to - poison_from);
  memcpy(A1, A2, sizeof(A2)); __asm__ volatile("" : : "r"(A1) : "memory");
  free(A1);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 8 24 2>&1 | %FileCheck %s --check-prefix=M-8_24
// RUN: %not %t 16 32 2>&1 | %FileCheck %s --check-prefix=M-16_32
// RUN: %not %t 24 40 2>&1 | %FileCheck %s --check-prefix=M-24_40
// RUN: %not %t 32 48 2>&1 | %FileCheck %s --check-prefix=M-32_48
// RUN: %not %t 40 56 2>&1 | %FileCheck %s --check-prefix=M-40_56
// RUN: %not %t 48 64 2>&1 | %FileCheck %s --check-prefix=M-48_64
// RUN: %t 64 64 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-8_24: mdebug: ERROR: heap buffer overflow in
// M-8_24-NOT: *** ***
// M-8_24: small_memcpy_test.cpp:23:
// M-16_32: mdebug: ERROR: heap buffer overflow in
// M-16_32-NOT: *** ***
// M-16_32: small_memcpy_test.cpp:23:
// M-24_40: mdebug: ERROR: heap buffer overflow in
// M-24_40-NOT: *** ***
// M-24_40: small_memcpy_test.cpp:23:
// M-32_48: mdebug: ERROR: heap buffer overflow in
// M-32_48-NOT: *** ***
// M-32_48: small_memcpy_test.cpp:23:
// M-40_56: mdebug: ERROR: heap buffer overflow in
// M-40_56-NOT: *** ***
// M-40_56: small_memcpy_test.cpp:23:
// M-48_64: mdebug: ERROR: heap buffer overflow in
// M-48_64-NOT: *** ***
// M-48_64: small_memcpy_test.cpp:23:
// CLEAN-NOT: mdebug
