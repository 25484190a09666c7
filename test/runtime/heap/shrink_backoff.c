// Proves: a program that frees its whole heap and builds it again, cycle
// after cycle (a garbage collector's pattern), does not have the heap's
// pages given back to the OS and faulted in again at every cycle: once the
// released pages are seen taken back at once, shrink passes wait longer, so
// the page faults per cycle fall far under the pages a cycle touches
// (every page, each cycle, before). The second RUN checks the same with
// every check off.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=none %t 2>&1 | %FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

enum { N = 64 * 1024, SIZE = 512, CYCLES = 40, WARMUP = 10 };
static char *v[N];

static long minor_faults(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

int main(void) {
  long before = 0;
  for (int c = 0; c < CYCLES; c++) {
    if (c == WARMUP)
      before = minor_faults();
    for (int i = 0; i < N; i++) {
      v[i] = malloc(SIZE);
      memset(v[i], i, SIZE);
    }
    for (int i = 0; i < N; i++)
      free(v[i]);
  }
  long per_cycle = (minor_faults() - before) / (CYCLES - WARMUP);
  long pages = (long)N * SIZE / 4096;
  printf("faults per cycle %s\n",
         per_cycle * 4 < pages ? "under a quarter of the pages" : "too many");
  return 0;
}
// CHECK: faults per cycle under a quarter of the pages
// CHECK-NOT: mdebug
