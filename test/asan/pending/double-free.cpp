// Adapted from compiler-rt test/asan/TestCases/double-free.cpp (a malloc block freed twice).
// EXPECT: - double free at 13
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *x = (char *)malloc(10 * sizeof(char));
  memset(x, 0, 10);
  int res = x[argc];
  free(x);
  if (argc == 1)
    free(x + argc - 1); // BOOM
  return res;
}
