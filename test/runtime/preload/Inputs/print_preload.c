/* Prints LD_PRELOAD and LD_LIBRARY_PATH; with an argument, loses a block of
 * 99 bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *p = getenv("LD_PRELOAD"), *l = getenv("LD_LIBRARY_PATH");
  printf("LD_PRELOAD=%s\nLD_LIBRARY_PATH=%s\n", p ? p : "", l ? l : "");
  if (argc > 1)
    memset(malloc(99), 0, 99);
  return 0;
}
