// Adapted from compiler-rt test/asan/TestCases/printf-2.c (printf's %s reading a freed strdup block).
// EXPECT: - use after free at 16
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  volatile char c = '0';
  volatile int x = 12;
  volatile float f = 1.239;
  volatile char s[] = "34";
  char *p = strdup((const char *)s);
  if (argc == 1)
    free(p);
  printf("%c %d %.3f %s\n", c, x, f, p);
  if (argc > 1)
    free(p);
  return 0;
}
