// Proves: delete[] twice on an array of a type with a destructor is
// reported as a double free by operator delete[] (compiler-rt's
// test/asan/TestCases/new_array_cookie_uaf_test.cpp): the second delete[]
// reads its element count from the freed block's cookie, which mdebug's
// cookie check turns into 0, so no destructor runs over freed memory
// before operator delete[] sees the call. The run without the bug prints
// nothing.
// RUN: %mdebug_clangxx -g -O0 -std=c++17 %s -o %t
// RUN: %not %t bug 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
#include <cstdio>

static int destroyed;

struct C {
  int x;
  ~C() { destroyed++; }
};

int main(int argc, char **argv) {
  C *buffer = new C[4];
  delete[] buffer;
  if (argc > 1)
    delete[] buffer;
  if (destroyed != 4)
    std::fprintf(stderr, "destroyed %d\n", destroyed);
  return 0;
}
// CHECK: mdebug: ERROR: double free in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 DOUBLE FREE (operator delete[])
// CHECK-NEXT:   allocated by operator new[] at {{.*}}double_delete.cpp:22:15 (main)
// CHECK-NEXT:   freed by operator delete[] at {{.*}}double_delete.cpp:23:3 (main)
// CHECK-NEXT:   freed again by operator delete[] at {{.*}}double_delete.cpp:25:5 (main)
// CHECK-NOT: destroyed
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
