// Adapted from compiler-rt test/asan/TestCases/strtoll_strict.c (strtoll reading the last 3 bytes of an 11-byte heap block that hold no NUL; test3, which needs ASan's poisoning API, is left out).
// EXPECT: test1 heap buffer overflow at 16
// EXPECT: test2 heap buffer overflow at 24
// EXPECT: test4 heap buffer overflow at 31
// EXPECT: test5 heap buffer overflow at 40
// EXPECT: test6 heap buffer overflow at 48
// EXPECT: test7 heap buffer overflow at 56
// EXPECT: clean clean
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <stdlib.h>
#include <string.h>

void test1(char *array, char *endptr) {
  // Buffer overflow if there is no terminating null (depends on base)
  long long r = strtoll(array, &endptr, 3);
  assert(array + 2 == endptr);
  assert(r == 5);
}

void test2(char *array, char *endptr) {
  // Buffer overflow if there is no terminating null (depends on base)
  array[2] = 'z';
  long long r = strtoll(array, &endptr, 35);
  assert(array + 2 == endptr);
  assert(r == 37);
}

void test4(char *array, char *endptr) {
  // Buffer overflow if base is invalid.
  long long r = strtoll(array + 3, NULL, 1);
  assert(r == 0);
}

void test5(char *array, char *endptr) {
  // Overflow if no digits are found.
  array[0] = ' ';
  array[1] = '+';
  array[2] = '-';
  long long r = strtoll(array, NULL, 0);
  assert(r == 0);
}

void test6(char *array, char *endptr) {
  // Overflow if no digits are found.
  array[0] = ' ';
  array[1] = array[2] = 'z';
  long long r = strtoll(array, &endptr, 0);
  assert(array == endptr);
  assert(r == 0);
}

void test7(char *array, char *endptr) {
  // Overflow if no digits are found.
  array[2] = 'z';
  long long r = strtoll(array + 2, NULL, 0);
  assert(r == 0);
}

void clean(char *array, char *endptr) {
  array[2] = '\0';
  long long r = strtoll(array, &endptr, 10);
  assert(r == 12);
}

int main(int argc, char **argv) {
  char *array0 = (char *)malloc(11);
  char *array = array0 + 8;
  char *endptr = NULL;
  array[0] = '1';
  array[1] = '2';
  array[2] = '3';
  if (argc != 2) return 1;
  if (!strcmp(argv[1], "test1")) test1(array, endptr);
  if (!strcmp(argv[1], "test2")) test2(array, endptr);
  if (!strcmp(argv[1], "test4")) test4(array, endptr);
  if (!strcmp(argv[1], "test5")) test5(array, endptr);
  if (!strcmp(argv[1], "test6")) test6(array, endptr);
  if (!strcmp(argv[1], "test7")) test7(array, endptr);
  if (!strcmp(argv[1], "clean")) clean(array, endptr);
  free(array0);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t test1 2>&1 | %FileCheck %s --check-prefix=M-TEST1
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t test2 2>&1 | %FileCheck %s --check-prefix=M-TEST2
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t test4 2>&1 | %FileCheck %s --check-prefix=M-TEST4
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t test5 2>&1 | %FileCheck %s --check-prefix=M-TEST5
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t test6 2>&1 | %FileCheck %s --check-prefix=M-TEST6
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t test7 2>&1 | %FileCheck %s --check-prefix=M-TEST7
// RUN: env MDEBUG_OPTIONS=strict_string_checks %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-TEST1: mdebug: ERROR: heap buffer overflow in
// M-TEST1-NOT: *** ***
// M-TEST1: strtoll_strict.c:16:
// M-TEST2: mdebug: ERROR: heap buffer overflow in
// M-TEST2-NOT: *** ***
// M-TEST2: strtoll_strict.c:24:
// M-TEST4: mdebug: ERROR: heap buffer overflow in
// M-TEST4-NOT: *** ***
// M-TEST4: strtoll_strict.c:31:
// M-TEST5: mdebug: ERROR: heap buffer overflow in
// M-TEST5-NOT: *** ***
// M-TEST5: strtoll_strict.c:40:
// M-TEST6: mdebug: ERROR: heap buffer overflow in
// M-TEST6-NOT: *** ***
// M-TEST6: strtoll_strict.c:48:
// M-TEST7: mdebug: ERROR: heap buffer overflow in
// M-TEST7-NOT: *** ***
// M-TEST7: strtoll_strict.c:56:
// CLEAN-NOT: mdebug
