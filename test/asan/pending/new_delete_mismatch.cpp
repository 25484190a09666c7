// Adapted from compiler-rt test/asan/TestCases/Linux/new_delete_mismatch.cpp (new[] released by delete, built with -fsized-deallocation too: a mismatch, not a size mismatch).
// EXPECT: - alloc-dealloc mismatch at 14
// EXPECT: clean clean
// CFLAGS: -fsized-deallocation
#include <stdlib.h>

static volatile char *x;

int main(int argc, char **argv) {
  x = new char[10]; __asm__ volatile("" : : "r"(x) : "memory");
  if (argc > 1)
    delete[] x;
  else
    delete x;
}
