/* leak_check_other.c - a second source file of a test program in
 * test/runtime/leak_check, so a suppression can name a file. */
#include <stdlib.h>
#include <string.h>

/* Allocates a buffer of n bytes and forgets it unless keep is set. */
void *other_file_buffer(size_t n, int keep) {
  char *buffer = malloc(n);
  memset(buffer, 'o', n);
  return keep ? buffer : NULL;
}
