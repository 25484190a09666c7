// Proves: a program that churns several large blocks at a time (three
// buffers of 200 to 300 KB allocated, filled and freed each round, as
// snappy's tests do with their input, compressed and uncompressed strings)
// reuses their pages once warm, with the defaults and with every check off:
// the bound on freed blocks' resident pages learns from the spans it gave
// back and had to fault in again. Before, once the quarantine's kept
// blocks had filled the bound, only the newest freed span stayed cached
// and the two other blocks faulted in every page at each round (~130
// faults a round; a handful now). A burst of frees after that still keeps
// the bound and what it learnt (1 MiB at most), not every block.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %t churn 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS=none %t churn 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: churn: pages reused
// CHECK-NEXT: burst: freed blocks hold under the bound
// CLEAN-NOT: mdebug
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "Inputs/resident.h"

#define ROUNDS 200
#define BLOCKS 3
#define BURST 24


/* One round: three blocks of different sizes, each filled, then freed. */
static void round_of(void) {
  static const size_t sizes[BLOCKS] = {300000, 250000, 200000};
  char *p[BLOCKS];
  for (int i = 0; i < BLOCKS; i++) {
    p[i] = malloc(sizes[i]);
    memset(p[i], 0x5a, sizes[i]);
  }
  for (int i = 0; i < BLOCKS; i++)
    free(p[i]);
}

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "churn")) {
    round_of();
    return 0;
  }
  long start = resident_kib();
  for (int i = 0; i < 20; i++) /* warm-up: the bound learns here */
    round_of();
  long before = faults();
  for (int i = 0; i < ROUNDS; i++)
    round_of();
  long per_round = (faults() - before) / ROUNDS;
  /* A fresh span for one block of the three costs 50 or more. */
  printf("churn: %s\n", per_round < 20 ? "pages reused" : "pages faulted in");
  if (per_round >= 20)
    printf("%ld faults a round\n", per_round);

  /* BURST blocks of 300 KB (7 MB) freed at once: over where the program
   * started, the bound (256 KiB to 1 MiB here), the newest span, one kept
   * block, what the churn taught (1 MiB) and slack; not the 7 MB. */
  char *b[BURST];
  for (int i = 0; i < BURST; i++)
    memset(b[i] = malloc(300000), i + 1, 300000);
  for (int i = 0; i < BURST; i++)
    free(b[i]);
  long held = resident_kib() - start;
  long limit = 1024 + 2 * 300 + 1024 + 256;
  printf("burst: freed blocks hold %s\n",
         held <= limit ? "under the bound" : "too much");
  if (held > limit)
    printf("%ld KiB resident after the frees, limit %ld\n", held, limit);
  return 0;
}
