// Adapted from compiler-rt test/asan/TestCases/huge_negative_hea_oob.cpp (a read 4000 bytes before a 1 MiB malloc block).
// EXPECT: - heap buffer overflow at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *x = (char *)malloc(1 << 20);
  memset(x, 0, 1 << 20);
  int offset = argc > 1 ? 4000 : -argc * 4000;
  int res = x[offset]; // BOOOM
  free(x);
  return res;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not --crash %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: huge_negative_hea_oob.cpp:11:
// CLEAN-NOT: mdebug
