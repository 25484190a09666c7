// Adapted from compiler-rt test/asan/TestCases/printf-2.c (printf's %s reading a freed strdup block).
// EXPECT: - use after free at 16
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  volatile char c = '0';
  volatile int x = 12;
  volatile float f = 1.239;
  volatile char s[] = "34";
  char *p = strdup((const char *)s);
  if (argc == 1)
    free(p);
  printf("%c %d %.3f %s\n", c, x, f, p);
  if (argc > 1)
    free(p);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: use after free in
// CHECK-NOT: *** ***
// CHECK: printf-2.c:16:
// CLEAN-NOT: mdebug
