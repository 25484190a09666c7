// Proves: snapshot_interval=N appends a snapshot labelled "interval" every
// N seconds (per-site totals and the tracked blocks), from a thread of the
// runtime's, while the program goes on (here: sleeping, allocating now and
// then); mdebug-report reads the periodic totals back. The clean case:
// without it no interval snapshot is taken (only the exit's).
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none snapshot_interval=1 sample_rate=1 profile_prefix=%t.d/prof" %t %t.d/prof 3 2>&1 | %FileCheck %s
// RUN: grep '^A ' %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=FILE
// RUN: %mdebug_report --report=periodic %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=PERIODIC
// RUN: env MDEBUG_OPTIONS="none profile_prefix=%t.d/clean" %t %t.d/clean 0 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: grep '^A ' %t.d/clean.*.mdprof | %FileCheck %s --check-prefix=CLEAN-FILE
#include <stdio.h>
#include <stdlib.h>

#include "Inputs/wait_profile.h"

static void *keep[1000];
static int kept;

int main(int argc, char **argv) {
  int want = atoi(argv[2]);
  keep[kept++] = malloc(64);
  /* Each interval snapshot sees one more block. */
  for (int seen = 0; seen < want; seen++) {
    if (!wait_for_snapshots(argv[1], "interval", seen + 1)) {
      printf("only %d interval snapshots after 30 s\n", seen);
      return 1;
    }
    keep[kept++] = malloc(64);
  }
  printf("%d interval snapshots\n", want);
  return 0;
}
// CHECK-NOT: mdebug
// CHECK: 3 interval snapshots
// FILE: A 0 {{[0-9]+}} {{[0-9]+}} interval
// FILE-NEXT: A 1 {{[0-9]+}} {{[0-9]+}} interval
// FILE-NEXT: A 2 {{[0-9]+}} {{[0-9]+}} interval
// FILE: exit
// PERIODIC: live bytes
// PERIODIC-COUNT-3: {{[0-9.]+}} s
// CLEAN: 0 interval snapshots
// CLEAN-FILE-NOT: interval
// CLEAN-FILE: A 0 {{[0-9]+}} {{[0-9]+}} exit
// CLEAN-FILE-NOT: interval
