// Adapted from compiler-rt test/asan/TestCases/Posix/wcrtomb.c (wcrtomb storing into a freed block).
// EXPECT: - use after free at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <wchar.h>

int main(int argc, char **argv) {
  char *buff = (char *)malloc(MB_CUR_MAX);
  if (argc == 1)
    free(buff);
  wcrtomb(buff, L'a', NULL);
  if (argc > 1)
    free(buff);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: use after free in
// CHECK-NOT: *** ***
// CHECK: wcrtomb.c:11:
// CLEAN-NOT: mdebug
