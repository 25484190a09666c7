// Proves: memory registered with mdebug_register_root() (here an anonymous
// region mapped by a raw system call, which mdebug never sees, so the
// scanner does not otherwise look at it) is a root: a
// block whose only pointer lies there is not a leak, at a mid-run
// mdebug_check_leaks() or at exit. Once the region is unregistered, a
// mid-run mdebug_check_leaks() reports the block ("so far") and returns 1,
// and the exit-time check does not report it a second time.
// RUN: %mdebug_clang -g -I%mdebug_include -I%S/../../Inputs %s -o %t
// RUN: %not %t unregister 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "leak_check_util.h"

#define REGION_SIZE 65536

/* Allocated first, so it is the lowest live block, which the block under
 * test is not (see check_leaks_lowest_block.c). */
static char *anchor;

/* Puts the only pointer to a new block in the middle of the region. */
static __attribute__((noinline)) void keep_in_region(void **region) {
  char *block = malloc(200);
  memset(block, 'r', 200);
  region[REGION_SIZE / sizeof(void *) / 2] = block;
}

int main(int argc, char **argv) {
  anchor = malloc(16);
  void **region = (void **)syscall(SYS_mmap, NULL, REGION_SIZE,
                                  PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  mdebug_register_root(region, REGION_SIZE);
  keep_in_region(region);
  scrub_stack();
  fprintf(stderr, "registered: %zu reported\n", mdebug_check_leaks());
  if (argc > 1) {
    mdebug_unregister_root(region, REGION_SIZE);
    fprintf(stderr, "unregistered: %zu reported\n", mdebug_check_leaks());
  }
  fprintf(stderr, "exiting\n");
  return 0;
}
// CHECK: registered: 0 reported
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 200 bytes leaked in 1 block (1 direct, 0 indirect) so far; 1 block (16 bytes) still reachable
// CHECK-NEXT: Direct leak of 200 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}register_root.c:29:17 (keep_in_region)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 200 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: unregistered: 1 reported
// CHECK-NEXT: exiting
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 200 bytes leaked in 1 block
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: registered: 0 reported
// CLEAN-NEXT: exiting
// CLEAN-NOT: mdebug
