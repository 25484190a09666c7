// Adapted from compiler-rt test/asan/TestCases/deep_stack_uaf.cpp (a read of a block freed 200 calls deep).
// EXPECT: - use after free at 22
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

template <int depth> struct DeepFree {
  static void free(char *x) { DeepFree<depth - 1>::free(x); }
};

template <> struct DeepFree<0> {
  static void free(char *x) { ::free(x); }
};

int main(int argc, char **argv) {
  char *x = (char *)malloc(10);
  x[5] = 0;
  int r = argc > 1 ? x[5] : 0;
  DeepFree<200>::free(x);
  if (argc > 1)
    return r;
  return x[5];
}
