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
