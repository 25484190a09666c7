// Adapted from compiler-rt test/asan/TestCases/strcspn-2.c (strcspn whose stop set runs past its block: a 2-byte heap block "ab" with no NUL, where the original poisoned a stack array from its third byte).
// EXPECT: - heap buffer overflow at 14
// EXPECT: clean clean
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  size_t r;
  char s1[] = "ab";
  char *s2 = (char *)malloc(argc > 1 ? 4 : 2);
  memcpy(s2, "abc", argc > 1 ? 4 : 2);
  r = strcspn(s1, s2);
  assert(r == 0);
  free(s2);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: env MDEBUG_OPTIONS=strict_string_checks %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: strcspn-2.c:14:
// CLEAN-NOT: mdebug
