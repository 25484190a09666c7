/* A library to preload beside mdebug's runtime: it says so from a
 * constructor, so a test can see that mdebug-run kept LD_PRELOAD. */
#include <stdio.h>
__attribute__((constructor)) static void hello(void) {
  fprintf(stderr, "other preload here\n");
}
