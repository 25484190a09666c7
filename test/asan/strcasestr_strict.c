// Adapted from compiler-rt test/asan/TestCases/strcasestr_strict.c (strcasestr over a 100-byte heap haystack with no NUL: found at once, but the haystack is no string).
// EXPECT: - heap buffer overflow at 19
// EXPECT: clean clean
// ASAN_OPTIONS: strict_string_checks=true
#define _GNU_SOURCE
#include <assert.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  size_t size = 100;
  char *s1 = (char *)malloc(size);
  char *s2 = (char *)malloc(size);
  memset(s1, 'o', size);
  memset(s2, 'O', size);
  s2[size - 1] = '\0';
  if (argc > 1)
    s1[size - 1] = '\0';
  char *r = strcasestr(s1, s2);
  assert(argc > 1 ? r == s1 : r == s1);
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
// CHECK: strcasestr_strict.c:19:
// CLEAN-NOT: mdebug
