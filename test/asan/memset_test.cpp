// Adapted from compiler-rt test/asan/TestCases/memset_test.cpp (large memset/memcpy/memmove must check their whole range: 3000 bytes over a 512-byte block, where the original poisoned bytes 512-543 of a 3000-byte block; and memcpy through a pointer with a size of -1).
// EXPECT: -DTEST_MEMSET heap buffer overflow at 17
// EXPECT: -DTEST_MEMCPY heap buffer overflow at 24
// EXPECT: -DTEST_MEMMOVE heap buffer overflow at 26
// EXPECT: -DTEST_MEMCPY_SIZE_OVERFLOW heap buffer overflow at 29
// EXPECT: -DTEST_CLEAN clean
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *(*memcpy_t)(void *, const void *, size_t);

int main(int argc, char **argv) {
  char *volatile p = (char *)malloc(512);
#if defined(TEST_MEMSET)
  memset(p, 0, 3000);
  assert(p[1] == 0);
#else
  char *volatile q = (char *)malloc(3000);
  memset(p, 0, 512);
  memset(q, 1, 3000);
#if defined(TEST_MEMCPY)
  memcpy(q, p, 3000);
#elif defined(TEST_MEMMOVE)
  memmove(q, p, 3000);
#elif defined(TEST_MEMCPY_SIZE_OVERFLOW)
  volatile memcpy_t my_memcpy = &memcpy;
  my_memcpy(p, q, -argc);
#else
  memcpy(q, p, 512);
#endif
  assert(q[1] == 0);
  free(q);
#endif
  free(p);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -DTEST_CLEAN %s -o %t.TEST_CLEAN
// RUN: %t.TEST_CLEAN 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -DTEST_MEMCPY %s -o %t.TEST_MEMCPY
// RUN: %not %t.TEST_MEMCPY 2>&1 | %FileCheck %s --check-prefix=M-DTEST_MEMCPY
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -DTEST_MEMMOVE %s -o %t.TEST_MEMMOVE
// RUN: %not %t.TEST_MEMMOVE 2>&1 | %FileCheck %s --check-prefix=M-DTEST_MEMMOVE
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g -DTEST_MEMSET %s -o %t.TEST_MEMSET
// RUN: %not %t.TEST_MEMSET 2>&1 | %FileCheck %s --check-prefix=M-DTEST_MEMSET
// M-DTEST_MEMSET: mdebug: ERROR: heap buffer overflow in
// M-DTEST_MEMSET-NOT: *** ***
// M-DTEST_MEMSET: memset_test.cpp:17:
// M-DTEST_MEMCPY: mdebug: ERROR: heap buffer overflow in
// M-DTEST_MEMCPY-NOT: *** ***
// M-DTEST_MEMCPY: memset_test.cpp:24:
// M-DTEST_MEMMOVE: mdebug: ERROR: heap buffer overflow in
// M-DTEST_MEMMOVE-NOT: *** ***
// M-DTEST_MEMMOVE: memset_test.cpp:26:
// CLEAN-NOT: mdebug
