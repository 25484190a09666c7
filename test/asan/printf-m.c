// Adapted from compiler-rt test/asan/TestCases/printf-m.c (printf's %m takes no argument, so "%.5s" reads exactly the 5 bytes of a heap block with no NUL: no error; a stack array in the original).
// EXPECT: - clean
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main() {
  char *s = (char *)malloc(5);
  memcpy(s, "world", 5);
  printf("%m %s, %.5s\n", "hello", s);
  free(s);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
