// Adapted from compiler-rt test/asan/TestCases/Linux/memmem_test.cpp (memmem told that the haystack (no argument) or the needle (argument 1) is one byte longer than its heap block; stack arrays in the original).
// EXPECT: - heap buffer overflow at 17
// EXPECT: 1 heap buffer overflow at 19
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *a1 = (char *)malloc(8);
  char *a2 = (char *)malloc(3);
  for (int i = 0; i < 8; i++)
    a1[i] = i + 1;
  for (int i = 0; i < 3; i++)
    a2[i] = i + 3;
  void *res;
  if (argc == 1)
    res = memmem(a1, 8 + 1, a2, 3); // BOOM
  else if (argv[1][0] == '1')
    res = memmem(a1, 8, a2, 3 + 1); // BOOM
  else
    res = memmem(a1, 8, a2, 3);
  free(a1);
  free(a2);
  return res == NULL;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %not %t 1 2>&1 | %FileCheck %s --check-prefix=M-1
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: memmem_test.cpp:17:
// M-1: mdebug: ERROR: heap buffer overflow in
// M-1-NOT: *** ***
// M-1: memmem_test.cpp:19:
// CLEAN-NOT: mdebug
