// Proves: the leak scan reads only the pages of the program's data and bss
// that hold data: a 64 MiB static array the program never touched but for
// one page costs a leak check no page faults and leaves none of its other
// pages mapped (reading them mapped each: the zero page, or, on a kernel
// without one for reads, 4 KiB of memory each, 64 MiB resident at exit),
// yet a block whose only pointer lies in the touched page stays reachable.
// The control run overwrites that pointer: the block is then reported.
// RUN: %mdebug_clang -g -I%mdebug_include -I%S/../../Inputs %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %not %t lose 2>&1 | %FileCheck %s
#include <mdebug/mdebug.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "leak_check_util.h"
#include "pagemap_util.h"

#define BIG ((size_t)64 << 20)
#define AT (BIG / 2 + 24)
static char big[BIG] __attribute__((aligned(4096)));

static __attribute__((noinline)) void fill(void) {
  void *only = malloc(77);
  memcpy(big + AT, &only, sizeof only);
}

static long faults(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}

/* Pages of big mapped. */
static unsigned mapped(void) {
  return pages_present((uintptr_t)big, (uintptr_t)big + BIG, NULL);
}

int main(int argc, char **argv) {
  fill();
  if (argc > 1)
    memset(big + AT, 0, sizeof(void *));
  scrub_stack();
  long f0 = faults();
  size_t leaks = mdebug_check_leaks();
  long f = faults() - f0;
  fprintf(stderr, "leaks: %zu; faults under 256: %s; pages of the array mapped: %u\n",
          leaks, f < 256 ? "yes" : "NO", mapped());
  return 0;
}
// CLEAN-NOT: mdebug
// CLEAN: leaks: 0; faults under 256: yes; pages of the array mapped: 1
// CLEAN-NOT: mdebug
// CHECK:      mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 77 bytes leaked in 1 block (1 direct, 0 indirect) so far
// CHECK-NEXT: Direct leak of 77 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}sparse_bss.c:27:16 (fill)
// CHECK:      leaks: 1; faults under 256: yes; pages of the array mapped: 1
// CHECK:      mdebug: SUMMARY: 0 errors, 77 bytes leaked in 1 block
