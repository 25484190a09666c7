// Adapted from compiler-rt test/asan/TestCases/atol_strict.c (atol reading a 10-byte heap string that has no terminating NUL: the strict reading of the whole string overflows).
// EXPECT: test1 heap buffer overflow at 15
// EXPECT: test2 heap buffer overflow at 22
// EXPECT: test3 heap buffer overflow at 31
// EXPECT: clean clean
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <stdlib.h>
#include <string.h>

void test1(char *array) {
  // Last symbol is non-digit
  memset(array, '1', 10);
  array[9] = 'a';
  long r = atol(array);
  assert(r == 111111111);
}

void test2(char *array) {
  // Single non-digit symbol
  array[9] = 'a';
  long r = atol(array + 9);
  assert(r == 0);
}

void test3(char *array) {
  // Incorrect number format
  memset(array, ' ', 10);
  array[9] = '-';
  array[8] = '-';
  long r = atol(array);
  assert(r == 0);
}

void clean(char *array) {
  memset(array, '1', 10);
  array[8] = 'a';
  array[9] = '\0';
  long r = atol(array);
  assert(r == 11111111);
}

int main(int argc, char **argv) {
  char *array = (char *)malloc(10);
  if (argc != 2) return 1;
  if (!strcmp(argv[1], "test1")) test1(array);
  if (!strcmp(argv[1], "test2")) test2(array);
  if (!strcmp(argv[1], "test3")) test3(array);
  if (!strcmp(argv[1], "clean")) clean(array);
  free(array);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t test1 2>&1 | %FileCheck %s --check-prefix=M-TEST1
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t test2 2>&1 | %FileCheck %s --check-prefix=M-TEST2
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t test3 2>&1 | %FileCheck %s --check-prefix=M-TEST3
// RUN: env MDEBUG_OPTIONS=strict_string_checks %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-TEST1: mdebug: ERROR: heap buffer overflow in
// M-TEST1-NOT: *** ***
// M-TEST1: atol_strict.c:15:
// M-TEST2: mdebug: ERROR: heap buffer overflow in
// M-TEST2-NOT: *** ***
// M-TEST2: atol_strict.c:22:
// M-TEST3: mdebug: ERROR: heap buffer overflow in
// M-TEST3-NOT: *** ***
// M-TEST3: atol_strict.c:31:
// CLEAN-NOT: mdebug
