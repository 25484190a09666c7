// Adapted from compiler-rt test/asan/TestCases/time_interceptor.cpp (time() storing into a freed block).
// EXPECT: - use after free at 12
// EXPECT: clean clean
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  time_t *tm = (time_t *)malloc(sizeof(time_t));
  if (argc == 1)
    free(tm);
  time_t t = time(tm);
  printf("Time: %s\n", ctime(&t));
  if (argc > 1)
    free(tm);
  return 0;
}
