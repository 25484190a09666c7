// Adapted from compiler-rt test/sanitizer_common/TestCases/allocator_returns_null.cpp (malloc, calloc, realloc and operator new of 2^40 + 1 bytes, past ASan's maximum allocation size, and a calloc whose count * size overflows; one mode each).
// EXPECT: malloc allocation size too big at 27
// EXPECT: calloc allocation size too big at 29
// EXPECT: calloc-overflow calloc overflow at 34
// EXPECT: realloc allocation size too big at 36
// EXPECT: realloc-after-malloc allocation size too big at 40
// EXPECT: new allocation size too big at 44
// EXPECT: new-nothrow allocation size too big at 46
// EXPECT: clean clean
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits>
#include <new>

int main(int argc, char **argv) {
  assert(argc == 2);
  const char *action = argv[1];
  fprintf(stderr, "%s:\n", action);

  static const size_t kMaxAllowedMallocSizePlusOne = (1ULL << 40) + 1;

  void *x = nullptr;
  if (!strcmp(action, "malloc")) {
    x = malloc(kMaxAllowedMallocSizePlusOne);
  } else if (!strcmp(action, "calloc")) {
    x = calloc((kMaxAllowedMallocSizePlusOne / 4) + 1, 4);
  } else if (!strcmp(action, "calloc-overflow")) {
    volatile size_t kMaxSizeT = std::numeric_limits<size_t>::max();
    size_t kArraySize = 4096;
    volatile size_t kArraySize2 = kMaxSizeT / kArraySize + 10;
    x = calloc(kArraySize, kArraySize2);
  } else if (!strcmp(action, "realloc")) {
    x = realloc(0, kMaxAllowedMallocSizePlusOne);
  } else if (!strcmp(action, "realloc-after-malloc")) {
    char *t = (char *)malloc(100);
    *t = 42;
    x = realloc(t, kMaxAllowedMallocSizePlusOne);
    assert(*t == 42);
    free(t);
  } else if (!strcmp(action, "new")) {
    x = operator new(kMaxAllowedMallocSizePlusOne);
  } else if (!strcmp(action, "new-nothrow")) {
    x = operator new(kMaxAllowedMallocSizePlusOne, std::nothrow);
  } else {
    x = malloc(100);
    free(x);
    x = nullptr;
  }

  fprintf(stderr, "errno: %d, x: %lx\n", errno, (long)x);
  if (strncmp(action, "new", 3)) free(x); else operator delete(x);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t malloc 2>&1 | %FileCheck %s --check-prefix=M-MALLOC
// RUN: %not %t calloc 2>&1 | %FileCheck %s --check-prefix=M-CALLOC
// RUN: %not %t calloc-overflow 2>&1 | %FileCheck %s --check-prefix=M-CALLOC_OVERFLOW
// RUN: %not %t realloc 2>&1 | %FileCheck %s --check-prefix=M-REALLOC
// RUN: %not %t realloc-after-malloc 2>&1 | %FileCheck %s --check-prefix=M-REALLOC_AFTER_MALLOC
// RUN: %not --crash %t new 2>&1 | %FileCheck %s --check-prefix=M-NEW
// RUN: %not %t new-nothrow 2>&1 | %FileCheck %s --check-prefix=M-NEW_NOTHROW
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// M-MALLOC: mdebug: ERROR: allocation size too big in
// M-MALLOC-NOT: *** ***
// M-MALLOC: allocator_returns_null.cpp:27:
// M-CALLOC: mdebug: ERROR: allocation size too big in
// M-CALLOC-NOT: *** ***
// M-CALLOC: allocator_returns_null.cpp:29:
// M-CALLOC_OVERFLOW: mdebug: ERROR: calloc overflow in
// M-CALLOC_OVERFLOW-NOT: *** ***
// M-CALLOC_OVERFLOW: allocator_returns_null.cpp:34:
// M-REALLOC: mdebug: ERROR: allocation size too big in
// M-REALLOC-NOT: *** ***
// M-REALLOC: allocator_returns_null.cpp:36:
// M-REALLOC_AFTER_MALLOC: mdebug: ERROR: allocation size too big in
// M-REALLOC_AFTER_MALLOC-NOT: *** ***
// M-REALLOC_AFTER_MALLOC: allocator_returns_null.cpp:40:
// M-NEW: mdebug: ERROR: allocation size too big in
// M-NEW-NOT: *** ***
// M-NEW: allocator_returns_null.cpp:44:
// M-NEW_NOTHROW: mdebug: ERROR: allocation size too big in
// M-NEW_NOTHROW-NOT: *** ***
// M-NEW_NOTHROW: allocator_returns_null.cpp:46:
// CLEAN-NOT: mdebug
