// Adapted from compiler-rt test/asan/TestCases/use-after-free-right.cpp (a write to the only byte of a freed 1-byte block).
// EXPECT: - use after free at 12
// EXPECT: clean clean
#include <stdlib.h>

int main(int argc, char **argv) {
  volatile char *x = (char *)malloc(sizeof(char));
  if (argc > 1)
    *x = 42;
  free((void *)x);
  if (argc == 1)
    *x = 42;
  return 0;
}
