// Adapted from compiler-rt test/asan/TestCases/strdup_oob_test.cpp (a read 1 byte past the 4-byte block strdup returned).
// EXPECT: - heap buffer overflow at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

char kString[] = "foo";

int main(int argc, char **argv) {
  char *copy = strdup(kString);
  int x = copy[argc > 1 ? 3 : 4 + argc]; // BOOM
  free(copy);
  return x;
}
