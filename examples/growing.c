/* growing.c - the example of the README's mdebug-report command: a request
 * loop with one allocation site that grows without bound (a cache that never
 * evicts) beside sites whose memory comes and goes. mdebug-report's growth
 * analysis names the cache's site first. The program takes a snapshot after
 * each batch of requests (mdebug_snapshot), so the run is short and the
 * report the same from run to run. */
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
  struct entry *next;
  char key[40];
};

static struct entry *cache; /* grows: nothing is ever evicted */

static void remember(int request) {
  struct entry *e = malloc(sizeof *e);
  snprintf(e->key, sizeof e->key, "request-%d", request);
  e->next = cache;
  cache = e;
}

static void handle(int request) {
  char *buffer = malloc(4096); /* freed before the request ends */
  memset(buffer, request & 0xff, 4096);
  if (request % 3 == 0)
    remember(request);
  free(buffer);
}

int main(void) {
  for (int batch = 0; batch < 20; batch++) {
    for (int i = 0; i < 300; i++)
      handle(batch * 300 + i);
    mdebug_snapshot("batch");
  }
  printf("%d requests handled\n", 20 * 300);
  return 0;
}
