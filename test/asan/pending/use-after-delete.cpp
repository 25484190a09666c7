// Adapted from compiler-rt test/asan/TestCases/use-after-delete.cpp (a read of an array freed by delete[]).
// EXPECT: - use after free at 15
// EXPECT: clean clean
#include <stdlib.h>

int main(int argc, char **argv) {
  char *volatile x = new char[10];
  x[5] = 0;
  if (argc > 1) {
    int r = x[5];
    delete[] x;
    return r;
  }
  delete[] x;
  return x[5];
}
