// Adapted from compiler-rt test/asan/TestCases/malloc-size-too-big.cpp (malloc of 2^40 + 1 bytes, past ASan's maximum allocation size).
// EXPECT: - allocation size too big at 11
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

static const size_t kMaxAllowedMallocSizePlusOne = (1ULL << 40) + 1;

int main(int argc, char **argv) {
  size_t n = argc > 1 ? 100 : kMaxAllowedMallocSizePlusOne;
  void *p = malloc(n); __asm__ volatile("" : : "r"(p) : "memory");
  printf("malloc returned: %d\n", p != 0);
  free(p);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: allocation size too big in
// CHECK-NOT: *** ***
// CHECK: malloc-size-too-big.cpp:11:
// CLEAN-NOT: mdebug
