// Adapted from compiler-rt test/asan/TestCases/strstr_strict.c (strstr over a 100-byte heap haystack with no NUL: found at once, but the haystack is no string).
// EXPECT: - heap buffer overflow at 18
// EXPECT: clean clean
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  size_t size = 100;
  char *s1 = (char *)malloc(size);
  char *s2 = (char *)malloc(size);
  memset(s1, 'o', size);
  memset(s2, 'o', size);
  s2[size - 1] = '\0';
  if (argc > 1)
    s1[size - 1] = '\0';
  char *r = strstr(s1, s2);
  assert(argc > 1 ? r == s1 : r == s1);
  free(s1);
  free(s2);
  return 0;
}
