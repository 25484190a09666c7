// Adapted from compiler-rt test/asan/TestCases/printf-5.c (printf whose format is a 2-byte heap buffer with no NUL; a stack buffer in the original).
// EXPECT: - heap buffer overflow at 16
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  volatile char c = '0';
  volatile int x = 12;
  volatile float f = 1.239;
  volatile char s[] = "34";
  size_t n = argc > 1 ? sizeof("%c %d %f %s\n") : 2;
  char *fmt = (char *)malloc(n);
  memcpy(fmt, "%c %d %f %s\n", n);
  printf(fmt, c, x, f, s);
  free(fmt);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: printf-5.c:16:
// CLEAN-NOT: mdebug
