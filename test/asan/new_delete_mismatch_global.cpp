// Adapted from compiler-rt test/asan/TestCases/Linux/new_delete_mismatch_global.cpp (delete of a pointer to a global array, which no allocator returned).
// EXPECT: - unknown pointer at 11
// EXPECT: clean clean
#include <stdlib.h>

static volatile char *x;
char a[10];

int main(int argc, char **argv) {
  x = argc > 1 ? new char : &a[0];
  delete x;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: unknown pointer in
// CHECK-NOT: *** ***
// CHECK: new_delete_mismatch_global.cpp:11:
// CLEAN-NOT: mdebug
