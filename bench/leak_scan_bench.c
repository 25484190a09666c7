/* leak_scan_bench.c - how long mdebug's reachability leak check takes.
 *
 *   leak_scan_bench BLOCKS SIZE [TOUCHED]
 * allocates BLOCKS blocks of SIZE bytes, all reachable from one array (and
 * every 1000th one leaked), writes the first TOUCHED bytes of each (default:
 * all; fewer makes large blocks sparse, as a calloc of GiBs used here and
 * there), then times mdebug_check_leaks() and prints "blocks=N size=S
 * heap_MiB=H scan_s=T leaked=L". Build with mdebug-clang; see
 * bench/README.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mdebug/mdebug.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
  size_t size = argc > 2 ? strtoul(argv[2], NULL, 10) : 32;
  size_t touched = argc > 3 ? strtoul(argv[3], NULL, 10) : size;
  if (touched > size)
    touched = size;
  void **all = malloc(n * sizeof(void *));
  if (!all)
    return 1;
  for (size_t i = 0; i < n; i++) {
    all[i] = malloc(size);
    if (!all[i])
      return 1;
    memset(all[i], 0x5a, touched); /* touched, as a real heap is */
  }
  for (size_t i = 0; i < n; i += 1000)
    all[i] = NULL; /* leak every 1000th block */
  double t0 = now();
  size_t leaked = mdebug_check_leaks();
  double t1 = now();
  printf("blocks=%zu size=%zu heap_MiB=%.0f scan_s=%.3f leaked=%zu\n", n, size,
         n * (double)size / (1 << 20), t1 - t0, leaked);
  for (size_t i = 0; i < n; i++)
    free(all[i]);
  free(all);
  return 0;
}
