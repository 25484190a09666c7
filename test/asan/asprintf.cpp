// Adapted from compiler-rt test/asan/TestCases/Posix/asprintf.cpp (a block asprintf allocated inside libc, printed and freed by the program: no error).
// EXPECT: - clean
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p;
  int res = asprintf(&p, "%d", argc);
  fprintf(stderr, "x%d %sx\n", res, p);
  free(p);
  fprintf(stderr, "DONE\n");
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
