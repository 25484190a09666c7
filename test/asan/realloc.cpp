// Adapted from compiler-rt test/asan/TestCases/realloc.cpp (realloc(p, 0) then free of what it returned: no error whether realloc frees and returns NULL or returns a block).
// EXPECT: - clean
#include <stdio.h>
#include <stdlib.h>

int main() {
  void *p = malloc(42);
  p = realloc(p, 0);
  if (p)
    fprintf(stderr, "Allocated something on realloc(p, 0)\n");
  else
    fprintf(stderr, "realloc(p, 0) returned nullptr\n");
  free(p);
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
