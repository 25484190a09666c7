// Adapted from compiler-rt test/asan/TestCases/sanity_check_pure_c.c (a read of a freed malloc block, in C).
// EXPECT: - use after free at 15
// EXPECT: clean clean
#include <stdlib.h>

int main(int argc, char **argv) {
  char *x = (char *)malloc(10 * sizeof(char));
  x[5] = 0;
  if (argc > 1) {
    int r = x[5];
    free(x);
    return r;
  }
  free(x);
  return x[5];
}
