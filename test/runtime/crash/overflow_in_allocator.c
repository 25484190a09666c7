// Proves: a stack overflow that the allocator's own frames run into (here
// with backtrace=256, whose unwinder needs a few KiB of stack at each
// allocation) is reported at the program's call, not at the runtime's
// function that touched the last page: the line names the runtime's
// instruction as being inside mdebug, called from the program's frame, and
// the backtrace starts at the program's frames (found from the frame
// pointer: the stack pointer is past the end of the stack's mapping) with
// no runtime frame in it. The clean case recurses within the stack.
// RUN: %mdebug_clang -O0 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace=256 %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace=256 %t 1000 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>

static long limit = -1;

__attribute__((noinline)) long recurse(long depth) {
  if (depth == limit)
    return 0;
  char pad[200];
  void *volatile p = malloc(16);
  pad[depth % 200] = (char)depth;
  long r = recurse(depth + 1) + pad[(depth * 7) % 200];
  free(p);
  return r;
}

int main(int argc, char **argv) {
  if (argc > 1)
    limit = atol(argv[1]);
  printf("recursed: %ld\n", recurse(0) * 0);
  return 0;
}
// CHECK: mdebug: ERROR: invalid access in
// CHECK-NEXT: +++ INVALID {{WRITE|READ|ACCESS}} AT 0x{{[0-9a-f]+}} (SIGSEGV, address not mapped)
// CHECK-NEXT: a stack overflow?
// CHECK-NEXT: {{write|read|access}} inside mdebug's runtime (at pc 0x{{[0-9a-f]+}} in {{.*}}), called from pc 0x{{[0-9a-f]+}} in recurse {{.*}}
// CHECK-NEXT: Backtrace at time of failure:
// CHECK-NEXT: #00 pc 0x{{[0-9a-f]+}} in recurse {{.*}}
// CHECK-NEXT: #01 pc 0x{{[0-9a-f]+}} in recurse {{.*}}
// CHECK: killed by signal 11
// CLEAN-NOT: mdebug
// CLEAN: recursed: 0
