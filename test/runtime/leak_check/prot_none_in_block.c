// Proves: the leak scan never reads a page the program made inaccessible
// inside its own large block (mprotect PROT_NONE, as a coroutine stack's
// guard page): the exit check does not crash (it did: SIGSEGV in the
// scanner), a block whose only pointer lies in an accessible page after the
// inaccessible one stays reachable, and one whose only pointer lies in the
// inaccessible page is reported (the scan cannot see that pointer).
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "leak_check_util.h"

#define PAGE 4096
static char *stack_area;

static __attribute__((noinline)) void fill(int hidden) {
  stack_area = aligned_alloc(PAGE, 64 * PAGE);
  memset(stack_area, 0, 64 * PAGE);
  void *after = malloc(33);
  memcpy(stack_area + 20 * PAGE + 8, &after, sizeof after);
  if (hidden) {
    void *inside = malloc(77);
    memcpy(stack_area + 8 * PAGE + 8, &inside, sizeof inside);
  }
  if (mprotect(stack_area + 8 * PAGE, PAGE, PROT_NONE) != 0)
    abort();
}

int main(int argc, char **argv) {
  fill(argc == 1);
  scrub_stack();
  fprintf(stderr, "done\n"); /* unbuffered: no stdio block to count */
  return 0;
}
// CHECK: done
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 77 bytes leaked in 1 block (1 direct, 0 indirect); 2 blocks (262177 bytes) still reachable
// CHECK-NEXT: Direct leak of 77 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}prot_none_in_block.c:26:20 (fill)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 77 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 77 bytes leaked in 1 block
// CLEAN: done
// CLEAN-NOT: mdebug
