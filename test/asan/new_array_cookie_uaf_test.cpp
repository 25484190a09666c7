// Adapted from compiler-rt test/asan/TestCases/Posix/new_array_cookie_uaf_test.cpp (delete[] twice of new C[1] where C has a destructor: the second reads the array cookie from freed memory; the original's store of 42 into the freed cookie, exempt from ASan's checks, is left out).
// EXPECT: - use after free at 24
// EXPECT: clean clean
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

int dtor_counter;

struct C {
  int x;
  ~C() {
    dtor_counter++;
    fprintf(stderr, "DTOR %d\n", dtor_counter);
  }
};

__attribute__((noinline)) void Delete(C *c) { delete[] c; }

int main(int argc, char **argv) {
  C *buffer = new C[argc];
  Delete(buffer);
  if (argc == 1)
    delete[] buffer;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: use after free in
// CHECK-NOT: *** ***
// CHECK: new_array_cookie_uaf_test.cpp:24:
// CLEAN-NOT: mdebug
