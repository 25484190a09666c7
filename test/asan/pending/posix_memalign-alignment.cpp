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
