// Adapted from compiler-rt test/sanitizer_common/TestCases/Posix/posix_memalign-alignment.cpp (posix_memalign with an alignment that is not a power of two (17, 24), not a multiple of sizeof(void *) (2), or 0).
// EXPECT: 17 invalid alignment at 19
// EXPECT: 24 invalid alignment at 19
// EXPECT: 2 invalid alignment at 19
// EXPECT: 0 invalid alignment at 19
// EXPECT: 32 clean
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  assert(argc == 2);
  const int alignment = atoi(argv[1]);
  void *const kInitialPtrValue = reinterpret_cast<void *>(0x2a);
  void *p = kInitialPtrValue;

  errno = 0;
  int res = posix_memalign(&p, alignment, 100);
  fprintf(stderr, "errno: %d, res: %d, p: %lx\n", errno, res, (long)p);
  if (res == 0)
    free(p);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 17 2>&1 | %FileCheck %s --check-prefix=M-17
// RUN: %not %t 24 2>&1 | %FileCheck %s --check-prefix=M-24
// RUN: %not %t 2 2>&1 | %FileCheck %s --check-prefix=M-2
// RUN: %not %t 0 2>&1 | %FileCheck %s --check-prefix=M-0
// RUN: %t 32 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-17: mdebug: ERROR: invalid posix_memalign alignment in
// M-17-NOT: *** ***
// M-17: posix_memalign-alignment.cpp:19:
// M-24: mdebug: ERROR: invalid posix_memalign alignment in
// M-24-NOT: *** ***
// M-24: posix_memalign-alignment.cpp:19:
// M-2: mdebug: ERROR: invalid posix_memalign alignment in
// M-2-NOT: *** ***
// M-2: posix_memalign-alignment.cpp:19:
// M-0: mdebug: ERROR: invalid posix_memalign alignment in
// M-0-NOT: *** ***
// M-0: posix_memalign-alignment.cpp:19:
// CLEAN-NOT: mdebug
