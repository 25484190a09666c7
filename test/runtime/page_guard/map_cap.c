// Proves: page-guarded blocks are capped at what vm.max_map_count allows
// ((max_map_count - 8192) / 2 live at once, two kernel mappings each): the
// next blocks are not guarded, mdebug says so once, the program runs on,
// and once some guarded blocks are freed new ones are guarded again.
// REQUIRES: default-map-count
// RUN: %mdebug_clang -fno-mdebug-check-lib-calls -g -O2 %s -o %t
// RUN: env MDEBUG_OPTIONS=page_guard %t 2>&1 | %FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int pipe_fd[2];

static int guarded(const char *p) {
  char c;
  if (write(pipe_fd[1], p + 16, 1) == 1) {
    read(pipe_fd[0], &c, 1);
    return 0;
  }
  return 1;
}

int main(void) {
  pipe(pipe_fd);
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  long maps = 65530;
  if (f) {
    fscanf(f, "%ld", &maps);
    fclose(f);
  }
  long cap = (maps - 8192) / 2, n = cap + 10, count = 0;
  char **blocks = calloc((size_t)n, sizeof(char *));
  count += guarded((char *)blocks);
  for (long i = 0; i < n; i++)
    count += guarded(blocks[i] = malloc(16));
  /* A few guarded blocks of libc's may be live already. */
  fprintf(stderr, "guarded up to the cap: %d\n",
          count <= cap && count > cap - 64);
  for (long i = 0; i < 100; i++)
    free(blocks[i]);
  char *again = malloc(16);
  fprintf(stderr, "guarded again after frees: %d\n", guarded(again));
  free(again);
  for (long i = 100; i < n; i++)
    free(blocks[i]);
  free(blocks);
  return 0;
}
// CHECK: mdebug: page_guard: {{[0-9]+}} page-guarded blocks are live, as many as vm.max_map_count ({{[0-9]+}}) allows with the mappings the program holds, or no slot is free; further blocks are not guarded until some are freed
// CHECK-NOT: mdebug:
// CHECK: guarded up to the cap: 1
// CHECK-NEXT: guarded again after frees: 1
// CHECK-NOT: mdebug
// (-fno-mdebug-check-lib-calls: the probes of guard pages through write() are not checked at the call.)
