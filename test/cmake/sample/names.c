/* names.c - the planted bug: the copy's NUL is written one byte past the
 * block, which mdebug reports when the block is freed. Line numbers are
 * checked by the tests in test/cmake. */
#include "names.h"

#include <stdlib.h>
#include <string.h>

char *copy_name(const char *name, int exact) {
  size_t len = strlen(name);
  char *copy = malloc(exact ? len + 1 : len);
  memcpy(copy, name, len + 1);
  return copy;
}
