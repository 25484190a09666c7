// Proves: munmap of the middle of a mapping splits it in two pieces, which
// stay one allocation for the leak check: a pointer to the head keeps the
// tail (the program reaches it by arithmetic, and may unmap both at once);
// a mapping split so and lost is reported as both pieces, by the site of
// the mmap, each with exactly its own bytes and address, and without the
// unmapped middle. An munmap across the end of one mapping and the start
// of the next (made with MAP_FIXED in a hole of the first, a mapping of its
// own) trims both. leak_track lists every piece. The clean case unmaps the
// pieces.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="leak_track mapping_leaks_fail" %not %t 2>&1 | %FileCheck %s --check-prefix=TRACK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "leak_check_util.h"

#define PAGE 4096
#define MIB (1 << 20)

static char *head, *first;

static __attribute__((noinline)) char *map_at(char *where, size_t n, int fixed) {
  char *p = mmap(where, n, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | (fixed ? MAP_FIXED : 0), -1, 0);
  if (p == MAP_FAILED)
    abort();
  return p;
}

static __attribute__((noinline)) void split(int clean) {
  char *p = map_at(NULL, MIB + 16 * PAGE, 0);
  head = p;
  munmap(p + 4 * PAGE, 4 * PAGE); /* the middle: the tail stays p's */
  char *q = map_at(NULL, 2 * MIB, 0);
  munmap(q + MIB, 4 * PAGE); /* lost, in two pieces */
  printf("lost %p and %p\n", (void *)q, (void *)(q + MIB + 4 * PAGE));
  char *a = map_at(NULL, MIB + 8 * PAGE, 0);
  first = a;
  munmap(a + 4 * PAGE, 4 * PAGE);
  map_at(a + 4 * PAGE, 4 * PAGE, 1);
  munmap(a + 3 * PAGE, 2 * PAGE);
  printf("second %p\n", (void *)(a + 5 * PAGE));
  if (clean) { /* piece by piece: a hole may hold someone else's mapping */
    munmap(p, 4 * PAGE);
    munmap(p + 8 * PAGE, MIB + 8 * PAGE);
    munmap(q, MIB);
    munmap(q + MIB + 4 * PAGE, MIB - 4 * PAGE);
    munmap(a, 3 * PAGE);
    munmap(a + 5 * PAGE, 3 * PAGE);
    munmap(a + 8 * PAGE, MIB);
  }
}

int main(int argc, char **argv) {
  split(argc > 1);
  scrub_stack();
  printf("done\n");
  return 0;
}
// CHECK: lost [[Q1:0x[0-9a-f]+]] and [[Q2:0x[0-9a-f]+]]
// CHECK: second [[SECOND:0x[0-9a-f]+]]
// CHECK: done
// CHECK: mdebug: 2093056 bytes leaked in 3 mappings (3 direct, 0 indirect); 1 block (4096 bytes) and 4 mappings (2158592 bytes) still reachable
// CHECK-NEXT: Direct leak of 2093056 bytes in 3 mappings:
// CHECK-NEXT:   allocated by mmap at {{.*}}partial_unmap.c:26:13 (map_at)
// CHECK-NEXT: +++ [[PROG:.*]] leaked mapping of 1048576 bytes at [[Q1]] (rw- private anonymous) (leak 1 of 3)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 1032192 bytes at [[Q2]] (rw- private anonymous) (leak 2 of 3)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 12288 bytes at [[SECOND]] (rw- private anonymous) (leak 3 of 3)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 2093056 bytes leaked in 3 mappings
//
// TRACK: lost [[Q1:0x[0-9a-f]+]] and [[Q2:0x[0-9a-f]+]]
// TRACK: second [[SECOND:0x[0-9a-f]+]]
// TRACK: mdebug: 4251648 bytes leaked in 7 mappings (leak_track: every block and mapping still allocated at exit)
// TRACK-NEXT: mdebug: leak_track: {{[0-9]+}} bytes in {{.*}} allocated by the C library, libstdc++ and the dynamic loader for themselves are not listed
// TRACK-NEXT: 4251648 bytes in 7 mappings:
// TRACK-NEXT:   allocated by mmap at {{.*}}partial_unmap.c:26:13 (map_at)
// TRACK-NEXT: +++ [[PROG:.*]] leaked mapping of 1081344 bytes at 0x{{[0-9a-f]+}} (rw- private anonymous)
// TRACK-NEXT: +++ [[PROG]] leaked mapping of 1048576 bytes at 0x{{[0-9a-f]+}} (rw- private anonymous)
// TRACK-NEXT: +++ [[PROG]] leaked mapping of 1048576 bytes at 0x{{[0-9a-f]+}} (rw- private anonymous)
// TRACK-NEXT: +++ [[PROG]] leaked mapping of 1032192 bytes at [[Q2]] (rw- private anonymous)
// TRACK-NEXT: +++ [[PROG]] leaked mapping of 16384 bytes at 0x{{[0-9a-f]+}} (rw- private anonymous)
// TRACK-NEXT: +++ [[PROG]] leaked mapping of 12288 bytes at 0x{{[0-9a-f]+}} (rw- private anonymous)
// TRACK-NEXT: +++ [[PROG]] leaked mapping of 12288 bytes at [[SECOND]] (rw- private anonymous)
//
// CLEAN-NOT: mdebug
// CLEAN: done
// CLEAN-NOT: mdebug
