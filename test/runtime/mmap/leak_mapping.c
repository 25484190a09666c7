// Proves: at exit, a mapping no root points into is reported as a leaked
// mapping by its mmap site, with its size, address, protection and flags; a
// block whose only pointer lies in that mapping is an indirect leak; a
// mapping kept through a global is not a leak, and neither is a block whose
// only pointer lies in it (the scan reads its pages), nor a mapping whose
// only pointer lies in a block kept through a global; the summary counts
// blocks and mappings apart. The clean case unmaps what it lost: nothing
// from mdebug.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "leak_check_util.h"

static void **kept;   /* the only pointer to the kept mapping */
static void **holder; /* a block holding the only pointer to another */

/* Over 1 MiB, to hold a few pages' worth of words beside large sizes.
 * (ld.so's stale pointer to where its cache was mapped, where a small
 * mapping may land, is not counted: loader_stale_start.c.) */
#define MIB (1 << 20)

static __attribute__((noinline)) void **map_pages(size_t n) {
  void **p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                  -1, 0);
  if (p == MAP_FAILED)
    abort();
  return p;
}

static __attribute__((noinline)) void fill(int clean) {
  kept = map_pages(MIB + 3 * 4096);
  kept[100] = malloc(48); /* reachable through the kept mapping */
  holder = malloc(16);
  holder[1] = (char *)map_pages(MIB) + 5000; /* an interior pointer */
  void **lost = map_pages(MIB + 2 * 4096);
  lost[7] = malloc(24); /* reachable only through the lost mapping */
  printf("lost %p\n", (void *)lost);
  if (clean) {
    free(lost[7]);
    munmap(lost, MIB + 2 * 4096);
  }
}

int main(int argc, char **argv) {
  fill(argc > 1);
  scrub_stack();
  printf("done\n");
  return 0;
}
// CHECK: lost [[LOST:0x[0-9a-f]+]]
// CHECK: done
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 1056792 bytes leaked in 1 block and 1 mapping (1 direct, 1 indirect); {{[0-9]+}} blocks ({{[0-9]+}} bytes) and 2 mappings (2109440 bytes) still reachable
// CHECK-NEXT: Direct leak of 1056768 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at {{.*}}leak_mapping.c:27:14 (map_pages)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 1056768 bytes at [[LOST]] (rw- private anonymous) (leak 1 of 2)
// CHECK-NEXT: Indirect leak of 24 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}leak_mapping.c:40:13 (fill)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 24 at 0x{{[0-9a-f]+}} (leak 2 of 2)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 1056792 bytes leaked in 1 block and 1 mapping
// CLEAN-NOT: mdebug
// CLEAN: done
// CLEAN-NOT: mdebug
