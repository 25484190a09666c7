// Adapted from compiler-rt test/asan/TestCases/printf-3.c (printf's %n storing past a 1-int heap array; a stack array in the original).
// EXPECT: - heap buffer overflow at 13
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  volatile char c = '0';
  volatile int x = 12;
  volatile float f = 1.239;
  volatile char s[] = "34";
  int *n = (int *)malloc(sizeof(int));
  printf("%c %d %.3f %s%n\n", c, x, f, s, &n[argc > 1 ? 0 : 1]);
  free(n);
  return 0;
}
