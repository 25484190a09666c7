// Adapted from compiler-rt test/asan/TestCases/heap-overflow-large.cpp (a read of new int[5] at an index given on the command line, far past the block's end).
// EXPECT: 12 heap buffer overflow at 15
// EXPECT: 100 heap buffer overflow at 15
// EXPECT: 10000 heap buffer overflow at 15
// EXPECT: 4 clean
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char *argv[]) {
  fprintf(stderr, "main\n");
  int *x = new int[5];
  memset(x, 0, sizeof(x[0]) * 5);
  int index = atoi(argv[1]);
  unsigned res = x[index];
  delete[] x;
  return (res % 10) + 1;
}
