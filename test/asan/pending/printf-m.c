// Adapted from compiler-rt test/asan/TestCases/printf-m.c (printf's %m takes no argument, so "%.5s" reads exactly the 5 bytes of a heap block with no NUL: no error; a stack array in the original).
// EXPECT: - clean
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main() {
  char *s = (char *)malloc(5);
  memcpy(s, "world", 5);
  printf("%m %s, %.5s\n", "hello", s);
  free(s);
  return 0;
}
