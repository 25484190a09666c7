// Adapted from compiler-rt test/asan/TestCases/printf-4.c (sprintf of 15 bytes into a 2-byte heap buffer; a stack buffer in the original).
// EXPECT: - heap buffer overflow at 14
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  volatile char c = '0';
  volatile int x = 12;
  volatile float f = 1.239;
  volatile char s[] = "34";
  char *buf = (char *)malloc(argc > 1 ? 64 : 2);
  fputs("before sprintf\n", stderr);
  sprintf(buf, "%c %d %.3f %s\n", c, x, f, s);
  fputs("after sprintf", stderr);
  fputs(buf, stderr);
  free(buf);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: printf-4.c:14:
// CLEAN-NOT: mdebug
