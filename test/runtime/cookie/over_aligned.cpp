// Proves: for an over-aligned element type (alignas(64)) the array cookie
// is 64 bytes, the count in its last 8; a write there (a negative index of
// a long view of the array) is reported by delete[] with the count's bytes
// (allocation[56..63]), and the right number of destructors runs. The run
// without the bug prints nothing.
// RUN: %mdebug_clangxx -g -O0 -std=c++17 %s -o %t
// RUN: %not %t bug 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
#include <cstdio>

static int destroyed;

struct alignas(64) Line {
  char bytes[64];
  ~Line() { destroyed++; }
};

int main(int argc, char **argv) {
  Line *lines = new Line[3];
  if (argc > 1)
    reinterpret_cast<long *>(lines)[-1] = 1000;
  delete[] lines;
  if (destroyed != 3)
    std::fprintf(stderr, "destroyed %d\n", destroyed);
  return 0;
}
// CHECK: mdebug: ERROR: array cookie overwritten in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 256 ARRAY COOKIE OVERWRITTEN (operator delete[])
// CHECK-NEXT:   allocation[56..63] holds the element count: 1000, expected 3 (192 bytes after the 64-byte cookie, elements of 64 bytes)
// CHECK-NEXT:   allocated by aligned operator new[] at {{.*}}over_aligned.cpp:20:17 (main)
// CHECK-NEXT:   released by operator delete[] at {{.*}}over_aligned.cpp:23:3 (main)
// CHECK-NOT: destroyed
// CHECK: mdebug: SUMMARY: 1 error (1 array cookie overwritten), 0 bytes leaked in 0 blocks
