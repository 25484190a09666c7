// Adapted from compiler-rt test/asan/TestCases/strncasecmp_strict.c (strncasecmp reading before or past two 100-byte arrays with no NUL; heap blocks here, stack arrays in the original. Modes b-g overflow whatever the checking; h and i only by strict string checking).
// EXPECT: a clean
// EXPECT: b heap buffer overflow at 40
// EXPECT: c heap buffer overflow at 43
// EXPECT: d heap buffer overflow at 46
// EXPECT: e heap buffer overflow at 49
// EXPECT: f heap buffer overflow at 52
// EXPECT: g heap buffer overflow at 55
// EXPECT: h heap buffer overflow at 59
// EXPECT: i heap buffer overflow at 63
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(int argc, char **argv) {
  assert(argc >= 2);
  enum { size = 100 };
  char fill = 'o';
  char *s1 = (char *)malloc(size);
  char *s2 = (char *)malloc(size);
  int r = 0;
  memset(s1, fill, size);
  memset(s2, fill, size);

  switch (argv[1][0]) {
  case 'a':
    s1[size - 1] = 'z';
    s2[size - 1] = 'x';
    for (int i = 0; i <= size; ++i)
      assert((strncasecmp(s1, s2, i) == 0) == (i < size));
    s1[size - 1] = '\0';
    s2[size - 1] = '\0';
    assert(strncasecmp(s1, s2, 2 * size) == 0);
    break;
  case 'b':
    r = strncasecmp(s1 - 1, s2, 1);
    break;
  case 'c':
    r = strncasecmp(s1, s2 - 1, 1);
    break;
  case 'd':
    r = strncasecmp(s1 + size, s2, 1);
    break;
  case 'e':
    r = strncasecmp(s1, s2 + size, 1);
    break;
  case 'f':
    r = strncasecmp(s1 + 1, s2, size);
    break;
  case 'g':
    r = strncasecmp(s1, s2 + 1, size);
    break;
  case 'h':
    s1[size - 1] = '\0';
    assert(strncasecmp(s1, s2, 2 * size) != 0);
    break;
  case 'i':
    s2[size - 1] = '\0';
    assert(strncasecmp(s1, s2, 2 * size) != 0);
    break;
  }
  free(s1);
  free(s2);
  return r & 1;
}
