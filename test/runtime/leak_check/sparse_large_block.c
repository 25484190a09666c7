// Proves: the leak scan reads only the pages of a large block that hold
// data: a reachable calloc of 2 GiB with 1 MiB touched costs a leak check
// no page faults (reading every page faulted 524288 times, 0.7 s) and no
// RSS, yet a block whose only pointer lies in a touched page of it stays
// reachable, and the sparse block itself is no leak. The control run
// overwrites that pointer: the block is then reported, the sparse block
// still not.
// RUN: %mdebug_clang -g -I%mdebug_include -I%S/../../Inputs %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %not %t lose 2>&1 | %FileCheck %s
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "leak_check_util.h"

#define BIG ((size_t)1 << 31)
static char *big;

static __attribute__((noinline)) void fill(void) {
  big = calloc(BIG, 1);
  if (!big)
    abort();
  memset(big + BIG / 2, 1, 1 << 20); /* 1 MiB touched, in the middle */
  void *only = malloc(77);
  memcpy(big + BIG / 2 + 4096 + 24, &only, sizeof only);
}

static long faults(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  fill();
  if (argc > 1)
    memset(big + BIG / 2 + 4096 + 24, 0, sizeof(void *));
  scrub_stack();
  long f0 = faults();
  double t0 = now();
  size_t leaks = mdebug_check_leaks();
  double t = now() - t0;
  long f = faults() - f0;
  fprintf(stderr, "leaks: %zu; faults under 256: %s; under 0.25 s: %s\n",
          leaks, f < 256 ? "yes" : "NO", t < 0.25 ? "yes" : "NO");
  if (f >= 256 || t >= 0.25)
    fprintf(stderr, "faults %ld, %.3f s\n", f, t);
  return 0;
}
// CLEAN-NOT: mdebug
// CLEAN: leaks: 0; faults under 256: yes; under 0.25 s: yes
// CLEAN-NOT: mdebug
// CHECK:      mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 77 bytes leaked in 1 block (1 direct, 0 indirect) so far; 1 block (2147483648 bytes) still reachable
// CHECK-NEXT: Direct leak of 77 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}sparse_large_block.c:28:16 (fill)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 77 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: leaks: 1; faults under 256: yes; under 0.25 s: yes
// CHECK-NOT: leak of 2147483648
// CHECK: mdebug: SUMMARY: 0 errors, 77 bytes leaked in 1 block
