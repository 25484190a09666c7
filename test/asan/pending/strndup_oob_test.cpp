// Adapted from compiler-rt test/asan/TestCases/Posix/strndup_oob_test.cpp (a read 1 byte past the 3-byte block strndup(s, 2) returned).
// EXPECT: - heap buffer overflow at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

char kString[] = "foo";

int main(int argc, char **argv) {
  char *copy = strndup(kString, 2);
  int x = copy[argc > 1 ? 2 : 2 + argc]; // BOOM
  free(copy);
  return x;
}
