// Proves: a mid-run mdebug_check_leaks() reports a lost block even when it
// is the lowest-addressed live block of the process (allocated first, here):
// nothing the scanner keeps for itself on the calling thread's stack, whose
// live frames are roots mid-run, may count as a pointer to a block. The
// clean run frees that block; the other block stays reachable from a global.
// RUN: %mdebug_clang -g -I%mdebug_include -I%S/../../Inputs %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_check_util.h"

static char *kept;

/* The first block of the process, lost unless release is set. */
static __attribute__((noinline)) void lose_first_block(int release) {
  char *first = malloc(24);
  memset(first, 'f', 24);
  kept = malloc(48);
  if (release)
    free(first);
}

int main(int argc, char **argv) {
  lose_first_block(argc > 1);
  scrub_stack();
  fprintf(stderr, "reported %zu\n", mdebug_check_leaks());
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 24 bytes leaked in 1 block (1 direct, 0 indirect) so far; 1 block (48 bytes) still reachable
// CHECK-NEXT: Direct leak of 24 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}check_leaks_lowest_block.c:20:17 (lose_first_block)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 24 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: reported 1
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 24 bytes leaked in 1 block
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: reported 0
// CLEAN-NOT: mdebug
