// Proves: mremap is followed: a mapping moved (MREMAP_FIXED into the middle
// of a PROT_NONE reservation, whose two ends remain) is listed at its new
// address with its new size, charged to the mremap site, and nothing is left
// at its old address; one shrunk in place keeps its address with the new
// size; one grown (MREMAP_MAYMOVE) has the grown size. The leak check
// follows the moved mapping through the global that points to it (no
// report); leak_track lists every mapping as the table has it.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: env MDEBUG_OPTIONS="leak_track mapping_leaks_fail" %not %t 2>&1 | %FileCheck %s
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE 4096

static char *moved, *shrunk, *grown, *reserve;

int main(void) {
  reserve = mmap(NULL, 20 * PAGE, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  char *a = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  a[0] = 'a';
  moved = mremap(a, 4 * PAGE, 8 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
                 reserve + 4 * PAGE);
  char *d = mmap(NULL, 8 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  shrunk = mremap(d, 8 * PAGE, 3 * PAGE, 0);
  char *g = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  grown = mremap(g, 2 * PAGE, 5 * PAGE, MREMAP_MAYMOVE);
  if (moved == MAP_FAILED || shrunk != d || grown == MAP_FAILED ||
      moved[0] != 'a')
    abort();
  printf("old %p reserve %p moved %p shrunk %p grown %p\n", (void *)a,
         (void *)reserve, (void *)moved, (void *)shrunk, (void *)grown);
  return 0;
}
// CLEAN-NOT: mdebug
// CLEAN: old
// CLEAN-NOT: mdebug
//
// CHECK: old [[OLD:0x[0-9a-f]+]] reserve [[RESERVE:0x[0-9a-f]+]] moved [[MOVED:0x[0-9a-f]+]] shrunk [[SHRUNK:0x[0-9a-f]+]] grown [[GROWN:0x[0-9a-f]+]]
// CHECK-NOT: [[OLD]]
// CHECK: 49152 bytes in 2 mappings:
// CHECK-NEXT:   allocated by mmap at {{.*}}mremap_move.c:21:13 (main)
// CHECK-NEXT: +++ [[PROG:.*]] leaked mapping of 32768 bytes at 0x{{[0-9a-f]+}} (--- private anonymous)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 16384 bytes at [[RESERVE]] (--- private anonymous)
// CHECK-NEXT: 32768 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mremap at {{.*}}mremap_move.c:26:11 (main)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 32768 bytes at [[MOVED]] (rw- private anonymous)
// CHECK-NEXT: 20480 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mremap at {{.*}}mremap_move.c:32:11 (main)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 20480 bytes at [[GROWN]] (rw- shared anonymous)
// CHECK-NEXT: 12288 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mremap at {{.*}}mremap_move.c:29:12 (main)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 12288 bytes at [[SHRUNK]] (r-- private anonymous)
// CHECK-NOT: [[OLD]]
// CHECK: mdebug: SUMMARY
