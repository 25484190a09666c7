// Adapted from compiler-rt test/asan/TestCases/Linux/bzero.cpp (bzero of 101 bytes over a 100-byte heap buffer; a stack buffer in the original).
// EXPECT: - heap buffer overflow at 10
// EXPECT: clean clean
#include <stdlib.h>
#include <strings.h>

int main(int argc, char *argv[]) {
  char *buf = (char *)malloc(100);
  // *& to suppress bzero-to-memset optimization.
  (*&bzero)(buf, argc > 1 ? 100 : 101);
  __asm__ volatile("" : : "r"(buf) : "memory"); free(buf); // the asm keeps the writes
  return 0;
}
