// Adapted from compiler-rt test/asan/TestCases/calloc-overflow.cpp (calloc whose count * size cannot be represented in size_t).
// EXPECT: - calloc overflow at 9
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  size_t n = argc > 1 ? 1 : (size_t)-1;
  void *p = calloc(n, 1000); __asm__ volatile("" : : "r"(p) : "memory");
  printf("calloc returned: %zu\n", (size_t)(p != 0));
  free(p);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: calloc overflow in
// CHECK-NOT: *** ***
// CHECK: calloc-overflow.cpp:9:
// CLEAN-NOT: mdebug
