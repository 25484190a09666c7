// Adapted from compiler-rt test/sanitizer_common/TestCases/Linux/aligned_alloc-alignment.cpp (aligned_alloc with an alignment that is not a power of two (17), a size that is not a multiple of the alignment (8), an alignment of 0).
// EXPECT: 17 invalid alignment at 14
// EXPECT: 8 invalid alignment at 14
// EXPECT: 0 invalid alignment at 14
// EXPECT: 4 clean
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  assert(argc == 2);
  const int alignment = atoi(argv[1]);
  void *p = aligned_alloc(alignment, 100);
  fprintf(stderr, "errno: %d, p: %lx\n", errno, (long)p);
  free(p);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 17 2>&1 | %FileCheck %s --check-prefix=M-17
// RUN: %not %t 0 2>&1 | %FileCheck %s --check-prefix=M-0
// RUN: %t 4 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-17: mdebug: ERROR: invalid aligned_alloc alignment in
// M-17-NOT: *** ***
// M-17: aligned_alloc-alignment.cpp:14:
// M-0: mdebug: ERROR: invalid aligned_alloc alignment in
// M-0-NOT: *** ***
// M-0: aligned_alloc-alignment.cpp:14:
// CLEAN-NOT: mdebug
