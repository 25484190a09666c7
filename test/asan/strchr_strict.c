// Adapted from compiler-rt test/asan/TestCases/strchr_strict.c (strchr over a 100-byte heap block with no NUL: the character is found at once, but the block is no string).
// EXPECT: - heap buffer overflow at 17
// EXPECT: clean clean
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  size_t size = 100;
  char fill = 'o';
  char *s = (char *)malloc(size);
  memset(s, fill, size);
  if (argc > 1)
    s[size - 1] = '\0';
  char c = 'o';
  char *r = strchr(s, c);
  assert(r == s);
  free(s);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O0 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: env MDEBUG_OPTIONS=strict_string_checks %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: strchr_strict.c:17:
// CLEAN-NOT: mdebug
// (Built at -O0: LLVM 19 at -O1 knows s[0] is the character sought and
// removes the call, so nothing reads past the block.)
