// Adapted from compiler-rt test/asan/TestCases/printf-1.c (printf and snprintf used correctly: snprintf into a 4-byte heap block with a size argument of 1000 writes only 4 bytes, which is no error).
// EXPECT: - clean
#include <stdio.h>
#include <stdlib.h>

int main() {
  volatile char c = '0';
  volatile int x = 12;
  volatile float f = 1.239;
  volatile char s[] = "34";
  printf("%c %d %.3f %s\n", c, x, f, s);
  char *buf = (char *)malloc(4);
  snprintf(buf, 1000, "qwe");
  printf("%s\n", buf);
  free(buf);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
