// Proves: the pages freed large blocks keep resident (the secondary's cache
// of freed spans and the quarantine's kept blocks together) stay under a
// bound, max(floor, live large bytes / 8) (the floor: 256 KiB to 1 MiB,
// by the heap's size), with no clock: 40 large blocks
// of different sizes (about 24 MB), filled and freed at once, leave the
// process's resident set within a few MiB of where it was before they were
// allocated, with the defaults and with every check off; with 32 MiB of
// large blocks still live, at most a few MiB more (their eighth). A block
// churned in a loop after that still reuses its pages (no page fault per
// page), so the bound does not undo the cache.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %t free_all 2>&1 | %FileCheck %s --check-prefix=BOUND --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS=none %t free_all 2>&1 | %FileCheck %s --check-prefix=BOUND --implicit-check-not=mdebug
// RUN: %t live 2>&1 | %FileCheck %s --check-prefix=LIVE --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS=none %t live 2>&1 | %FileCheck %s --check-prefix=LIVE --implicit-check-not=mdebug
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "Inputs/resident.h"

#define BLOCKS 40
#define MiB (1024L * 1024)

/* Resident bytes now. */
static long resident(void) { return resident_kib() * 1024; }

/* Allocates, fills and frees BLOCKS blocks of 300 KB to 900 KB. */
static void burst(void) {
  char *p[BLOCKS];
  for (int i = 0; i < BLOCKS; i++) {
    size_t n = 300000 + (size_t)i * 15000;
    p[i] = malloc(n);
    memset(p[i], 0x5a, n);
  }
  for (int i = 0; i < BLOCKS; i++)
    free(p[i]);
}

/* A 262 KiB block allocated, filled and freed in a loop: page faults per
 * 100 iterations (a fresh span costs 65 per iteration). */
static long churn_faults(void) {
  for (int i = 0; i < 50; i++) {
    char *volatile q = malloc(262144 + 64);
    memset(q, 0x33, 262144 + 64);
    free(q);
  }
  long before = faults();
  for (int i = 0; i < 1000; i++) {
    char *volatile q = malloc(262144 + 64);
    memset(q, 0x33, 262144 + 64);
    free(q);
  }
  return (faults() - before) * 100 / 1000;
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "clean";
  if (!strcmp(m, "free_all") || !strcmp(m, "live")) {
    char *live[16] = {0};
    size_t live_bytes = 0;
    if (!strcmp(m, "live"))
      for (int i = 0; i < 16; i++) { /* 32 MiB live: a bound of 4 MiB */
        live[i] = malloc(2 * MiB);
        memset(live[i], 0x11, 2 * MiB);
        live_bytes += 2 * MiB;
      }
    long before = resident();
    burst();
    long held = (resident() - before) / MiB;
    /* The bound, the newest cached span (under 1 MiB) and the page
     * tables' and the rest's slack. */
    long limit = 1 + (long)(live_bytes / 8 / MiB) + 3;
    printf("%s: freed blocks hold %s\n", m,
           held <= limit ? "under the bound" : "too much");
    if (held > limit)
      printf("%ld MiB resident after the frees, limit %ld\n", held, limit);
    long per100 = churn_faults();
    printf("churn: %s\n", per100 < 100 ? "pages reused" : "pages faulted in");
    for (int i = 0; i < 16; i++)
      free(live[i]);
  } else {
    burst();
  }
  return 0;
}
// BOUND: free_all: freed blocks hold under the bound
// BOUND-NEXT: churn: pages reused
// LIVE: live: freed blocks hold under the bound
// LIVE-NEXT: churn: pages reused
// CLEAN-NOT: mdebug
