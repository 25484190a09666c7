// Adapted from compiler-rt test/asan/TestCases/use-after-free.cpp (a read 5 bytes into a freed 10-byte malloc block).
// EXPECT: - use after free at 15
// EXPECT: clean clean
#include <stdlib.h>

int main(int argc, char **argv) {
  char *x = (char *)malloc(10 * sizeof(char));
  x[5] = 1;
  if (argc > 1) {
    int r = x[5];
    free(x);
    return r;
  }
  free(x);
  return x[5];
}
