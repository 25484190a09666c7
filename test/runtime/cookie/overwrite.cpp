// Proves: a write before the first element of a new[] array (buffer[-2].x
// for 4-byte elements, compiler-rt's test/asan/TestCases/
// new_array_cookie_test.cpp) overwrites the element count in the array
// cookie, and delete[] reports it (array cookie overwritten, with the count
// found and the one new[] stored, the new[] and delete[] sites) before any
// destructor runs; the destructors then run once per element new[] made
// (not 10 times), and the block is released. Also at -O2, with sized
// deallocation (whose size is computed from the count) and with checked
// accesses. The run without the bug prints nothing.
// RUN: %mdebug_clangxx -g -O0 -std=c++17 %s -o %t
// RUN: %not %t bug 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clangxx -g -O2 -std=c++17 %s -o %t.o2
// RUN: %not %t.o2 bug 2>&1 | %FileCheck %s
// RUN: %t.o2 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clangxx -g -O0 -std=c++17 -fsized-deallocation %s -o %t.sized
// RUN: %not %t.sized bug 2>&1 | %FileCheck %s
// RUN: %mdebug_clangxx -g -O1 -std=c++17 -fmdebug-check-access %s -o %t.checked
// RUN: %not %t.checked bug 2>&1 | %FileCheck %s
// RUN: %t.checked 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
#include <cstdio>

static int destroyed;

struct C {
  int x;
  ~C() { destroyed++; }
};

int main(int argc, char **argv) {
  C *buffer = new C[argc];
  if (argc > 1)
    buffer[-2].x = 10;
  delete[] buffer;
  if (destroyed != argc)
    std::fprintf(stderr, "destroyed %d\n", destroyed);
  return 0;
}
// CHECK: mdebug: ERROR: array cookie overwritten in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 ARRAY COOKIE OVERWRITTEN (operator delete[])
// CHECK-NEXT:   allocation[0..7] holds the element count: 10, expected 2 (8 bytes after the 8-byte cookie, elements of 4 bytes)
// CHECK-NEXT:   allocated by operator new[] at {{.*}}overwrite.cpp:32:15 (main)
// CHECK-NEXT:   released by operator delete[] at {{.*}}overwrite.cpp:35:3 (main)
// CHECK-NEXT:   a write before the array's first element (p[-1], a negative index) overwrote the count, or delete[] was given an array of another element type: delete[] runs 2 destructors (the elements new[] made), not 10
// CHECK-NOT: destroyed
// CHECK: mdebug: SUMMARY: 1 error (1 array cookie overwritten), 0 bytes leaked in 0 blocks
