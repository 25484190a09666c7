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
