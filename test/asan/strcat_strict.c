// Adapted from compiler-rt test/asan/TestCases/strcat_strict.c (strcat to the end of a 100-byte heap block (test1), and to a destination with no NUL (test2)).
// EXPECT: test1 heap buffer overflow at 11
// EXPECT: test2 heap buffer overflow at 17
// EXPECT: clean clean
#include <assert.h>
#include <stdlib.h>
#include <string.h>

void test1(char *to, int to_size, char *from) {
  // One of arguments points to not allocated memory.
  char *r = strcat(to + to_size, from);
}

void test2(char *to, int to_size, char *from) {
  // "to" is not zero-terminated.
  memset(to, 'z', to_size);
  char *r = strcat(to, from);
}

void clean(char *to, int to_size, char *from) {
  memset(to, 'z', 10);
  to[10] = '\0';
  char *r = strcat(to, from);
  assert(strlen(r) == 29);
}

int main(int argc, char **argv) {
  size_t to_size = 100;
  char *to = (char *)malloc(to_size);
  size_t from_size = 20;
  char *from = (char *)malloc(from_size);
  memset(from, 'z', from_size);
  from[from_size - 1] = '\0';
  if (argc != 2) return 1;
  if (!strcmp(argv[1], "test1")) test1(to, to_size, from);
  if (!strcmp(argv[1], "test2")) test2(to, to_size, from);
  if (!strcmp(argv[1], "clean")) clean(to, to_size, from);
  free(to);
  free(from);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t test1 2>&1 | %FileCheck %s --check-prefix=M-TEST1
// RUN: %not %t test2 2>&1 | %FileCheck %s --check-prefix=M-TEST2
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-TEST1: mdebug: ERROR: heap buffer overflow in
// M-TEST1-NOT: *** ***
// M-TEST1: strcat_strict.c:11:
// M-TEST2: mdebug: ERROR: heap buffer overflow in
// M-TEST2-NOT: *** ***
// M-TEST2: strcat_strict.c:17:
// CLEAN-NOT: mdebug
