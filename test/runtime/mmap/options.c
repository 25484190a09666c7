// Proves: mmap_min_size=N leaves mappings of fewer than N bytes out (a lost
// one is not reported, a larger lost one is); track_mmap=0 tracks no
// mapping and no thread stack (nothing reported, statistics count none);
// bad values are refused with a line naming the option and the rule, and
// the run keeps the defaults (the lost mappings are listed in their note,
// which leaves the exit status alone).
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS="mmap_min_size=1100000 mapping_leaks_fail" %not %t 2>&1 | %FileCheck %s --check-prefix=MIN
// RUN: env MDEBUG_OPTIONS="track_mmap=0 log_allocator_stats_on_exit" %t 2>&1 | %FileCheck %s --check-prefix=OFF
// RUN: env MDEBUG_OPTIONS=track_mmap=2 %t 2>&1 | %FileCheck %s --check-prefix=BAD-TRACK
// RUN: env MDEBUG_OPTIONS=mmap_min_size=4k %t 2>&1 | %FileCheck %s --check-prefix=BAD-MIN
// RUN: env MDEBUG_OPTIONS=mmap_min_size %t 2>&1 | %FileCheck %s --check-prefix=NO-VALUE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "leak_check_util.h"

#define MIB (1 << 20)

static __attribute__((noinline)) void lose(size_t n) {
  mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static int gate[2];
static void *blocked(void *arg) {
  char c;
  read(gate[0], &c, 1);
  return arg;
}

int main(void) {
  lose(MIB + 8 * 4096);
  lose(MIB + 32 * 4096);
  pthread_t t;
  if (pipe(gate) != 0 || pthread_create(&t, NULL, blocked, NULL) != 0)
    return 2;
  scrub_stack();
  printf("done\n");
  fflush(stdout);
  write(gate[1], "x", 1);
  pthread_join(t, NULL);
  return 0;
}
// MIN: mdebug: 1179648 bytes leaked in 1 mapping (1 direct, 0 indirect)
// MIN-NEXT: Direct leak of 1179648 bytes in 1 mapping:
// MIN: mdebug: SUMMARY: 0 errors, 1179648 bytes leaked in 1 mapping
//
// OFF-NOT: mdebug: ERROR
// OFF: mdebug: stats: by category: heap blocks {{[0-9]+}} bytes in {{[0-9]+}} blocks; mappings 0 bytes in 0 mappings; thread stacks 0 bytes in 0 stacks
// OFF-NOT: mdebug: ERROR
//
// BAD-TRACK: mdebug: MDEBUG_OPTIONS: bad value for option 'track_mmap', value must be <= 1: 2; ignoring MDEBUG_OPTIONS (running with the defaults)
// BAD-TRACK: mdebug: 2260992 bytes leaked in 2 mappings (2 direct, 0 indirect); not counted in the exit status
// BAD-MIN: mdebug: MDEBUG_OPTIONS: bad value for option 'mmap_min_size', non space found after option: k; ignoring MDEBUG_OPTIONS (running with the defaults)
// BAD-MIN: mdebug: 2260992 bytes leaked in 2 mappings (2 direct, 0 indirect); not counted in the exit status
// NO-VALUE: mdebug: MDEBUG_OPTIONS: option 'mmap_min_size' requires a value (mmap_min_size=N); ignoring MDEBUG_OPTIONS (running with the defaults)
