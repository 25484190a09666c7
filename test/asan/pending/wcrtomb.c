// Adapted from compiler-rt test/asan/TestCases/Posix/wcrtomb.c (wcrtomb storing into a freed block).
// EXPECT: - use after free at 11
// EXPECT: clean clean
#include <stdlib.h>
#include <wchar.h>

int main(int argc, char **argv) {
  char *buff = (char *)malloc(MB_CUR_MAX);
  if (argc == 1)
    free(buff);
  wcrtomb(buff, L'a', NULL);
  if (argc > 1)
    free(buff);
  return 0;
}
