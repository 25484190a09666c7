// Adapted from compiler-rt test/asan/TestCases/malloc-size-too-big.cpp (malloc of 2^40 + 1 bytes, past ASan's maximum allocation size).
// EXPECT: - allocation size too big at 11
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

static const size_t kMaxAllowedMallocSizePlusOne = (1ULL << 40) + 1;

int main(int argc, char **argv) {
  size_t n = argc > 1 ? 100 : kMaxAllowedMallocSizePlusOne;
  void *p = malloc(n); __asm__ volatile("" : : "r"(p) : "memory");
  printf("malloc returned: %d\n", p != 0);
  free(p);
  return 0;
}
