// Proves: memory goes back to the OS. A program that allocates 256 MB in
// small blocks, touches them and frees them all sees its resident size fall
// back (to under a quarter of the peak) without calling malloc_trim, and the
// same slots work again afterwards. The clean run checks the same with every
// check off.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=none %t 2>&1 | %FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N = 256 * 1024, SIZE = 1000 };
static char *v[N];

static long rss_mb(void) {
  long pages = 0, resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f || fscanf(f, "%ld %ld", &pages, &resident) != 2)
    return -1;
  fclose(f);
  return resident * sysconf(_SC_PAGESIZE) / (1 << 20);
}

int main(void) {
  for (int i = 0; i < N; i++) {
    v[i] = malloc(SIZE);
    memset(v[i], i, SIZE);
  }
  long peak = rss_mb();
  for (int i = 0; i < N; i++)
    free(v[i]);
  long after = rss_mb();
  printf("peak %s 200 MB, after free %s\n", peak > 200 ? ">" : "<=",
         after * 4 < peak ? "under a quarter of it" : "still high");
  for (int i = 0; i < N; i += 7) {
    v[i] = malloc(SIZE);
    memset(v[i], 1, SIZE);
    free(v[i]);
  }
  printf("reused\n");
  return 0;
}
// CHECK: peak > 200 MB, after free under a quarter of it
// CHECK-NEXT: reused
// CHECK-NOT: mdebug
