// Adapted from compiler-rt test/asan/TestCases/Linux/malloc_delete_mismatch.cpp (a malloc block released by delete).
// EXPECT: - alloc-dealloc mismatch at 14
// EXPECT: clean clean
#include <stdlib.h>

static volatile char *x;

int main(int argc, char **argv) {
  x = (char *)malloc(10);
  x[0] = 0;
  if (argc > 1)
    free((void *)x);
  else
    delete x;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: alloc-dealloc mismatch in
// CHECK-NOT: *** ***
// CHECK: malloc_delete_mismatch.cpp:14:
// CLEAN-NOT: mdebug
