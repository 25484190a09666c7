// Proves: with backtrace, every allocation and release entry point records
// its caller's stack starting at the calling function (#00 in make, in
// release), whichever way it went through the runtime: malloc, calloc,
// realloc(NULL, n), aligned_alloc and posix_memalign, the first block of a
// size (the heap's slow path) and the blocks after it (the inline path from
// the thread's cache), freed by free or by realloc(p, 0) (through the
// runtime's own realloc frames). Without the option the report has no stack.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace %not %t malloc 1 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace %not %t malloc 20 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace %not %t calloc 20 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace %not %t realloc 20 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace %not %t aligned 20 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace %not %t posix 20 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace %not %t realloc0 20 2>&1 | %FileCheck %s
// RUN: %not %t malloc 20 2>&1 | %FileCheck %s --check-prefix=OFF
#include <stdlib.h>
#include <string.h>

static const char *how;

__attribute__((noinline)) char *make(void) {
  void *p = NULL;
  if (!strcmp(how, "calloc"))
    p = calloc(1, 40);
  else if (!strcmp(how, "realloc"))
    p = realloc(NULL, 40);
  else if (!strcmp(how, "aligned"))
    p = aligned_alloc(32, 64);
  else if (!strcmp(how, "posix"))
    p = posix_memalign(&p, 32, 64) ? NULL : p;
  else
    p = malloc(40);
  return p;
}
__attribute__((noinline)) void release(char *p) {
  if (!strcmp(how, "realloc0"))
    p = realloc(p, 0);
  else
    free(p);
}
__attribute__((noinline)) void release_again(char *p) { free(p); }

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  how = argv[1];
  char *p = NULL;
  for (int i = atoi(argv[2]); i > 0; i--) {
    p = make();
    release(p);
  }
  release_again(p);
  return 0;
}
// CHECK: DOUBLE FREE (free)
// CHECK: Backtrace at time of allocation:
// CHECK-NEXT:           #00 pc 0x{{[0-9a-f]+}} in make{{[+ ].*}} ({{.*}}entry_point_stacks.c.tmp)
// CHECK-NEXT:           #01 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}entry_point_stacks.c.tmp)
// CHECK-NEXT:           #02 pc 0x{{[0-9a-f]+}} {{.*}}(/{{.*}}libc.so.6){{$}}
// CHECK-NEXT: Backtrace of original free:
// CHECK-NEXT:           #00 pc 0x{{[0-9a-f]+}} in release{{[+ ].*}} ({{.*}}entry_point_stacks.c.tmp)
// CHECK-NEXT:           #01 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}entry_point_stacks.c.tmp)
// CHECK-NEXT:           #02 pc 0x{{[0-9a-f]+}} {{.*}}(/{{.*}}libc.so.6){{$}}
// CHECK-NEXT: Backtrace at time of failure:
// CHECK-NEXT:           #00 pc 0x{{[0-9a-f]+}} in release_again{{[+ ].*}} ({{.*}}entry_point_stacks.c.tmp)
// CHECK: mdebug: SUMMARY: 1 error (1 double free)
// OFF: DOUBLE FREE (free)
// OFF-NOT: Backtrace
// OFF: mdebug: SUMMARY: 1 error (1 double free)
