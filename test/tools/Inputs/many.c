/* many.c - one program, many runs: the run given argument I makes the
 * errors and leaks that I selects, each at a site of its own, so a
 * directory of its logs has known counts of processes by site:
 *   I % 3 == 0   double free (34 of I in 0..99)
 *   I % 5 == 0   leak of 100 bytes (20)
 *   I % 7 == 0   heap-buffer overflow read, when built checked (15)
 *   I == 77      leak of 7 bytes (1)
 */
#include <stdlib.h>
#include <string.h>

static void *keep;

static void double_free(void) {
  char *volatile p = malloc(16);
  free(p);
  free(p); /* site: double free */
}

static void leak_hundred(void) { keep = malloc(100); keep = 0; }

static void leak_seven(void) { keep = malloc(7); keep = 0; }

static int overflow(int n) {
  char *volatile p = malloc((size_t)n);
  memset(p, 1, (size_t)n);
  int v = p[n]; /* site: one past the end */
  free(p);
  return v;
}

int main(int argc, char **argv) {
  int i = argc > 1 ? atoi(argv[1]) : 1;
  if (i % 3 == 0)
    double_free();
  if (i % 5 == 0)
    leak_hundred();
  if (i % 7 == 0)
    overflow(24);
  if (i == 77)
    leak_seven();
  return 0;
}
