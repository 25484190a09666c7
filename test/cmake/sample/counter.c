/* counter.c - allocates and frees correctly: in a build where only `names`
 * is instrumented, its calls stay plain malloc/free. */
#include "counter.h"

#include <stdlib.h>

unsigned count_char(const char *s, char c) {
  unsigned *table = calloc(256, sizeof(unsigned));
  for (; *s; ++s)
    table[(unsigned char)*s]++;
  unsigned n = table[(unsigned char)c];
  free(table);
  return n;
}
