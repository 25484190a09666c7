// Adapted from compiler-rt test/asan/TestCases/strchr_strict.c (strchr over a 100-byte heap block with no NUL: the character is found at once, but the block is no string).
// EXPECT: - heap buffer overflow at 17
// EXPECT: clean clean
// ASAN_OPTIONS: strict_string_checks=true
#include <assert.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  size_t size = 100;
  char fill = 'o';
  char *s = (char *)malloc(size);
  memset(s, fill, size);
  if (argc > 1)
    s[size - 1] = '\0';
  char c = 'o';
  char *r = strchr(s, c);
  assert(r == s);
  free(s);
  return 0;
}
