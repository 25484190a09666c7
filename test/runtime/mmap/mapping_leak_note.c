// Proves: a mapping lost at exit (re2's NULTerminated test: map two pages,
// unmap the second, keep the first to the end) is listed in a NOTE apart
// from the heap's leaks, by its mmap site, and leaves the exit status and
// the SUMMARY line alone; a heap block lost in the same run is still an
// error that sets the exit status, the note following its report;
// mapping_leaks_fail puts the mapping back in the one leak report, counted
// in the SUMMARY and the exit status. leak_track's list of every mapping
// still mapped is a note too. The clean case unmaps it: nothing.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: %t 2>&1 | %FileCheck %s
// RUN: %not %t heap 2>&1 | %FileCheck %s --check-prefix=HEAP
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %t 2>&1 | %FileCheck %s --check-prefix=FAIL
// RUN: env MDEBUG_OPTIONS=leak_track %t 2>&1 | %FileCheck %s --check-prefix=TRACK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "leak_check_util.h"

/* Over 1 MiB: see leak_mapping.c (ld.so's stale cache pointer). */
#define MIB (1 << 20)

static void *lost_block;

static __attribute__((noinline)) void nul_terminated(int clean) {
  long page = sysconf(_SC_PAGESIZE);
  char *p = mmap(NULL, MIB + page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    abort();
  munmap(p + MIB, page); /* an unreadable page right after the data */
  memset(p, 'x', MIB);
  printf("mapped %p\n", (void *)p);
  if (clean)
    munmap(p, MIB);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  nul_terminated(strcmp(mode, "clean") == 0);
  if (strcmp(mode, "heap") == 0) {
    lost_block = malloc(40);
    lost_block = NULL;
  }
  scrub_stack();
  printf("done\n");
  return 0;
}
// CHECK: mapped [[MAP:0x[0-9a-f]+]]
// CHECK: done
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: NOTE: mapping leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 1048576 bytes leaked in 1 mapping (1 direct, 0 indirect); not counted in the exit status (mapping_leaks_fail counts them)
// CHECK-NEXT: Mapping leak of 1048576 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at {{.*}}mapping_leak_note.c:30:13 (nul_terminated)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 1048576 bytes at [[MAP]] (rw- private anonymous) (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NOT: mdebug
//
// HEAP: done
// HEAP-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// HEAP-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid
// HEAP-NEXT: mdebug: 40 bytes leaked in 1 block (1 direct, 0 indirect);
// HEAP-NEXT: Direct leak of 40 bytes in 1 block:
// HEAP-NEXT:   allocated by malloc at {{.*}}mapping_leak_note.c:45:18 (main)
// HEAP-NEXT: +++ [[PROG]] leaked block of size 40 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// HEAP-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// HEAP-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// HEAP-NEXT: mdebug: NOTE: mapping leak in [[PROG]] (pid
// HEAP-NEXT: mdebug: 1048576 bytes leaked in 1 mapping (1 direct, 0 indirect); not counted
// HEAP-NEXT: Mapping leak of 1048576 bytes in 1 mapping:
// HEAP: mdebug: SUMMARY: 0 errors, 40 bytes leaked in 1 block{{$}}
//
// FAIL: done
// FAIL-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// FAIL-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid
// FAIL-NEXT: mdebug: 1048576 bytes leaked in 1 mapping (1 direct, 0 indirect);
// FAIL-NEXT: Direct leak of 1048576 bytes in 1 mapping:
// FAIL-NEXT:   allocated by mmap at {{.*}}mapping_leak_note.c:30:13 (nul_terminated)
// FAIL: mdebug: SUMMARY: 0 errors, 1048576 bytes leaked in 1 mapping
//
// TRACK: done
// TRACK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// TRACK-NEXT: mdebug: NOTE: mapping leak in [[PROG:.*]] (pid
// TRACK-NEXT: mdebug: 1048576 bytes in 1 mapping still mapped at exit (leak_track); not counted in the exit status (mapping_leaks_fail counts them)
// TRACK-NEXT: 1048576 bytes in 1 mapping:
// TRACK-NEXT:   allocated by mmap at {{.*}}mapping_leak_note.c:30:13 (nul_terminated)
// TRACK-NOT: mdebug
//
// CLEAN-NOT: mdebug
// CLEAN: done
// CLEAN-NOT: mdebug
