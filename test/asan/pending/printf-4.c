// Adapted from compiler-rt test/asan/TestCases/printf-4.c (sprintf of 15 bytes into a 2-byte heap buffer; a stack buffer in the original).
// EXPECT: - heap buffer overflow at 14
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  volatile char c = '0';
  volatile int x = 12;
  volatile float f = 1.239;
  volatile char s[] = "34";
  char *buf = (char *)malloc(argc > 1 ? 64 : 2);
  fputs("before sprintf\n", stderr);
  sprintf(buf, "%c %d %.3f %s\n", c, x, f, s);
  fputs("after sprintf", stderr);
  fputs(buf, stderr);
  free(buf);
  return 0;
}
