// Adapted from compiler-rt test/asan/TestCases/strncasecmp_strict.c (strncasecmp reading before or past two 100-byte arrays with no NUL; heap blocks here, stack arrays in the original. Modes b-g overflow whatever the checking; h and i only by strict string checking).
// EXPECT: a clean
// EXPECT: b heap buffer overflow at 40
// EXPECT: c heap buffer overflow at 43
// EXPECT: d heap buffer overflow at 46
// EXPECT: e heap buffer overflow at 49
// EXPECT: f heap buffer overflow at 52
// EXPECT: g heap buffer overflow at 55
// EXPECT: h heap buffer overflow at 59
// EXPECT: i heap buffer overflow at 63
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(int argc, char **argv) {
  assert(argc >= 2);
  enum { size = 100 };
  char fill = 'o';
  char *s1 = (char *)malloc(size);
  char *s2 = (char *)malloc(size);
  int r = 0;
  memset(s1, fill, size);
  memset(s2, fill, size);

  switch (argv[1][0]) {
  case 'a':
    s1[size - 1] = 'z';
    s2[size - 1] = 'x';
    for (int i = 0; i <= size; ++i)
      assert((strncasecmp(s1, s2, i) == 0) == (i < size));
    s1[size - 1] = '\0';
    s2[size - 1] = '\0';
    assert(strncasecmp(s1, s2, 2 * size) == 0);
    break;
  case 'b':
    r = strncasecmp(s1 - 1, s2, 1);
    break;
  case 'c':
    r = strncasecmp(s1, s2 - 1, 1);
    break;
  case 'd':
    r = strncasecmp(s1 + size, s2, 1);
    break;
  case 'e':
    r = strncasecmp(s1, s2 + size, 1);
    break;
  case 'f':
    r = strncasecmp(s1 + 1, s2, size);
    break;
  case 'g':
    r = strncasecmp(s1, s2 + 1, size);
    break;
  case 'h':
    s1[size - 1] = '\0';
    assert(strncasecmp(s1, s2, 2 * size) != 0);
    break;
  case 'i':
    s2[size - 1] = '\0';
    assert(strncasecmp(s1, s2, 2 * size) != 0);
    break;
  }
  free(s1);
  free(s2);
  return r & 1;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=strict_string_checks %t a 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t b 2>&1 | %FileCheck %s --check-prefix=M-B
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t c 2>&1 | %FileCheck %s --check-prefix=M-C
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t d 2>&1 | %FileCheck %s --check-prefix=M-D
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t e 2>&1 | %FileCheck %s --check-prefix=M-E
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t f 2>&1 | %FileCheck %s --check-prefix=M-F
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t g 2>&1 | %FileCheck %s --check-prefix=M-G
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t h 2>&1 | %FileCheck %s --check-prefix=M-H
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t i 2>&1 | %FileCheck %s --check-prefix=M-I
// CLEAN-NOT: mdebug
// M-B: mdebug: ERROR: heap buffer overflow in
// M-B-NOT: *** ***
// M-B: strncasecmp_strict.c:40:
// M-C: mdebug: ERROR: heap buffer overflow in
// M-C-NOT: *** ***
// M-C: strncasecmp_strict.c:43:
// M-D: mdebug: ERROR: heap buffer overflow in
// M-D-NOT: *** ***
// M-D: strncasecmp_strict.c:46:
// M-E: mdebug: ERROR: heap buffer overflow in
// M-E-NOT: *** ***
// M-E: strncasecmp_strict.c:49:
// M-F: mdebug: ERROR: heap buffer overflow in
// M-F-NOT: *** ***
// M-F: strncasecmp_strict.c:52:
// M-G: mdebug: ERROR: heap buffer overflow in
// M-G-NOT: *** ***
// M-G: strncasecmp_strict.c:55:
// M-H: mdebug: ERROR: heap buffer overflow in
// M-H-NOT: *** ***
// M-H: strncasecmp_strict.c:59:
// M-I: mdebug: ERROR: heap buffer overflow in
// M-I-NOT: *** ***
// M-I: strncasecmp_strict.c:63:
