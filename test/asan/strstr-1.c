// Adapted from compiler-rt test/asan/TestCases/strstr-1.c (strstr whose haystack runs past its block: a 2-byte heap block "ac" with no NUL, where the original poisoned a stack array from its third byte).
// EXPECT: - heap buffer overflow at 14
// EXPECT: clean clean
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *r = 0;
  char s2[] = "c";
  char *s1 = (char *)malloc(argc > 1 ? 4 : 2);
  memcpy(s1, "acb", argc > 1 ? 4 : 2);
  r = strstr(s1, s2);
  assert(argc > 1 ? r == s1 + 1 : r == s1 + 1);
  free(s1);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: env MDEBUG_OPTIONS=strict_string_checks %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: strstr-1.c:14:
// CLEAN-NOT: mdebug
