// Adapted from compiler-rt test/asan/TestCases/Posix/fread_fwrite.cpp (fwrite of 4 bytes from a 2-byte heap buffer (no argument), fread of 4 bytes into it (1); stack buffers in the original).
// EXPECT: - heap buffer overflow at 20
// EXPECT: 1 heap buffer overflow at 11
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

int test_fread(int n) {
  FILE *f = fopen("/dev/zero", "r");
  char *buf = (char *)calloc(2, 1);
  fread(buf, 2, n, f); // BOOM
  fclose(f);
  free(buf);
  return 0;
}

int test_fwrite(int n) {
  FILE *f = fopen("/dev/null", "w");
  char *buf = (char *)calloc(2, 1);
  fwrite(buf, 2, n, f); // BOOM
  free(buf);
  return fclose(f);
}

int main(int argc, char *argv[]) {
  if (argc > 1 && argv[1][0] == '1')
    test_fread(2);
  else if (argc > 1)
    return test_fread(1) + test_fwrite(1);
  else
    test_fwrite(2);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 1 2>&1 | %FileCheck %s --check-prefix=M-1
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-1: mdebug: ERROR: heap buffer overflow in
// M-1-NOT: *** ***
// M-1: fread_fwrite.cpp:11:
// CLEAN-NOT: mdebug
