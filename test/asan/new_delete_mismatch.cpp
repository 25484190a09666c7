// Adapted from compiler-rt test/asan/TestCases/Linux/new_delete_mismatch.cpp (new[] released by delete, built with -fsized-deallocation too: a mismatch, not a size mismatch).
// EXPECT: - alloc-dealloc mismatch at 14
// EXPECT: clean clean
// CFLAGS: -fsized-deallocation
#include <stdlib.h>

static volatile char *x;

int main(int argc, char **argv) {
  x = new char[10]; __asm__ volatile("" : : "r"(x) : "memory");
  if (argc > 1)
    delete[] x;
  else
    delete x;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -fsized-deallocation %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: alloc-dealloc mismatch in
// CHECK-NOT: *** ***
// CHECK: new_delete_mismatch.cpp:14:
// CLEAN-NOT: mdebug
