// Adapted from compiler-rt test/asan/TestCases/strncpy-overflow.cpp (strncpy of 10 bytes into a 9-byte malloc block).
// EXPECT: - heap buffer overflow at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *hello = (char *)malloc(6);
  strcpy(hello, "hello");
  char *short_buffer = (char *)malloc(9);
  strncpy(short_buffer, hello, argc > 1 ? 9 : 10); // BOOM
  int r = short_buffer[8];
  free(hello);
  free(short_buffer);
  return r;
}
