// Adapted from compiler-rt test/asan/TestCases/Linux/malloc_delete_mismatch.cpp (a malloc block released by delete).
// EXPECT: - alloc-dealloc mismatch at 14
// EXPECT: clean clean
#include <stdlib.h>

static volatile char *x;

int main(int argc, char **argv) {
  x = (char *)malloc(10);
  x[0] = 0;
  if (argc > 1)
    free((void *)x);
  else
    delete x;
}
