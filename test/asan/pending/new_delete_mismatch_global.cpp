// Adapted from compiler-rt test/asan/TestCases/Linux/new_delete_mismatch_global.cpp (delete of a pointer to a global array, which no allocator returned).
// EXPECT: - unknown pointer at 11
// EXPECT: clean clean
#include <stdlib.h>

static volatile char *x;
char a[10];

int main(int argc, char **argv) {
  x = argc > 1 ? new char : &a[0];
  delete x;
}
