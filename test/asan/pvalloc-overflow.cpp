// Adapted from compiler-rt test/sanitizer_common/TestCases/Linux/pvalloc-overflow.cpp (pvalloc of a size that overflows when rounded up to the page size: SIZE_MAX (m1) and SIZE_MAX - page size + 2 (psm1)).
// EXPECT: m1 allocation size too big at 23
// EXPECT: psm1 allocation size too big at 23
// EXPECT: clean clean
#include <assert.h>
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char *argv[]) {
  assert(argc == 2);
  const char *action = argv[1];
  const size_t page_size = sysconf(_SC_PAGESIZE);
  size_t size = 100;
  if (!strcmp(action, "m1"))
    size = (uintptr_t)-1;
  else if (!strcmp(action, "psm1"))
    size = (uintptr_t) - (page_size - 1);
  void *p = pvalloc(size);
  fprintf(stderr, "errno: %d, p: %lx\n", errno, (long)p);
  free(p);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t m1 2>&1 | %FileCheck %s --check-prefix=M-M1
// RUN: %not %t psm1 2>&1 | %FileCheck %s --check-prefix=M-PSM1
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-M1: mdebug: ERROR: pvalloc overflow in
// M-M1-NOT: *** ***
// M-M1: pvalloc-overflow.cpp:23:
// M-PSM1: mdebug: ERROR: pvalloc overflow in
// M-PSM1-NOT: *** ***
// M-PSM1: pvalloc-overflow.cpp:23:
// CLEAN-NOT: mdebug
