// Adapted from compiler-rt test/asan/TestCases/Posix/fgets_fputs.cpp (fgets of up to 3 bytes into a 2-byte heap buffer (1), fputs of a 1-byte heap buffer with no NUL (2), puts of a freed strdup block (3); the first two used stack buffers in the original).
// EXPECT: 1 heap buffer overflow at 15
// EXPECT: 2 heap buffer overflow at 26
// EXPECT: 3 use after free at 35
// EXPECT: clean clean
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int test_fgets(const char *testfile) {
  char *buf = (char *)malloc(2);
  FILE *fp = fopen(testfile, "r");
  assert(fp);
  fgets(buf, 2 + 1, fp); // BOOM
  fclose(fp);
  free(buf);
  return 0;
}

int test_fputs() {
  char *buf = (char *)malloc(1);
  buf[0] = 'x'; // Note: not nul-terminated
  FILE *fp = fopen("/dev/null", "w");
  assert(fp);
  fputs(buf, fp); // BOOM
  fclose(fp);
  free(buf);
  return 0;
}

int test_puts() {
  char *p = strdup("x");
  free(p);
  puts(p); // BOOM
  return 0;
}

int test_clean(const char *testfile) {
  char *buf = (char *)malloc(3);
  FILE *fp = fopen(testfile, "r");
  assert(fp);
  fgets(buf, 3, fp);
  fclose(fp);
  fp = fopen("/dev/null", "w");
  fputs(buf, fp);
  fclose(fp);
  free(buf);
  return 0;
}

int main(int argc, char *argv[]) {
  assert(argc >= 2);
  int testno = argv[1][0] - '0';
  if (testno == 1)
    return test_fgets(argv[0]);
  if (testno == 2)
    return test_fputs();
  if (testno == 3)
    return test_puts();
  return test_clean(argv[0]);
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 1 2>&1 | %FileCheck %s --check-prefix=M-1
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-1: mdebug: ERROR: heap buffer overflow in
// M-1-NOT: *** ***
// M-1: fgets_fputs.cpp:15:
// CLEAN-NOT: mdebug
