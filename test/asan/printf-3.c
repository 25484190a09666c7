// Adapted from compiler-rt test/asan/TestCases/printf-3.c (printf's %n storing past a 1-int heap array; a stack array in the original).
// EXPECT: - heap buffer overflow at 13
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  volatile char c = '0';
  volatile int x = 12;
  volatile float f = 1.239;
  volatile char s[] = "34";
  int *n = (int *)malloc(sizeof(int));
  printf("%c %d %.3f %s%n\n", c, x, f, s, &n[argc > 1 ? 0 : 1]);
  free(n);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: printf-3.c:13:
// CLEAN-NOT: mdebug
