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
