// Adapted from compiler-rt test/asan/TestCases/partial_right.cpp (a 4-byte read at offset 8 of a 10-byte block: 2 of its bytes lie past the end).
// EXPECT: - heap buffer overflow at 8
// EXPECT: clean clean
#include <stdlib.h>

int main(int argc, char **argv) {
  volatile int *x = (int *)malloc(2 * sizeof(int) + 2);
  int res = x[argc > 1 ? 1 : 2]; // BOOOM
  free((void *)x);
  return res;
}
