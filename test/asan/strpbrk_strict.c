// Adapted from compiler-rt test/asan/TestCases/strpbrk_strict.c (strpbrk over a 100-byte heap block with no NUL: it stops at once, but the block is no string).
// EXPECT: - heap buffer overflow at 19
// EXPECT: clean clean
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  size_t size = 100;
  char fill = 'o';
  char *s1 = (char *)malloc(size);
  char *s2 = (char *)malloc(2);
  memset(s1, fill, size);
  s2[0] = fill;
  s2[1] = '\0';
  if (argc > 1)
    s1[size - 1] = '\0';
  char *r = strpbrk(s1, s2);
  assert(r == s1);
  free(s1);
  free(s2);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: env MDEBUG_OPTIONS=strict_string_checks %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: strpbrk_strict.c:19:
// CLEAN-NOT: mdebug
