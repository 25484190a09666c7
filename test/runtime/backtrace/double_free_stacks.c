// Proves: with backtrace, a double free report shows three stacks after the
// sites: where the block was allocated, where it was first freed (from the
// quarantine) and where the second free happened, each frame named
// (function+offset) in the program, ending in libc's frame. Without the
// option the same report has no stack at all.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace %not %t 2>&1 | %FileCheck %s
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=OFF
#include <stdlib.h>

__attribute__((noinline)) char *make(void) { return malloc(40); }
__attribute__((noinline)) void release(char *p) { free(p); }
__attribute__((noinline)) void release_again(char *p) { free(p); }

int main(void) {
  char *p = make();
  release(p);
  release_again(p);
  return 0;
}
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 40 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}double_free_stacks.c:11:53 (make)
// CHECK-NEXT:   freed by free at {{.*}}double_free_stacks.c:12:51 (release)
// CHECK-NEXT:   freed again by free at {{.*}}double_free_stacks.c:13:57 (release_again)
// CHECK-NEXT: Backtrace at time of allocation:
// CHECK-NEXT:           #00 pc 0x{{[0-9a-f]+}} in make{{[+ ].*}} ({{.*}}double_free_stacks.c.tmp)
// CHECK-NEXT:           #01 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}double_free_stacks.c.tmp)
// CHECK-NEXT:           #02 pc 0x{{[0-9a-f]+}} {{.*}}(/{{.*}}libc.so.6){{$}}
// CHECK-NEXT: Backtrace of original free:
// CHECK-NEXT:           #00 pc 0x{{[0-9a-f]+}} in release{{[+ ].*}} ({{.*}}double_free_stacks.c.tmp)
// CHECK-NEXT:           #01 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}double_free_stacks.c.tmp)
// CHECK-NEXT:           #02 pc 0x{{[0-9a-f]+}} {{.*}}(/{{.*}}libc.so.6){{$}}
// CHECK-NEXT: Backtrace at time of failure:
// CHECK-NEXT:           #00 pc 0x{{[0-9a-f]+}} in release_again{{[+ ].*}} ({{.*}}double_free_stacks.c.tmp)
// CHECK-NEXT:           #01 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}double_free_stacks.c.tmp)
// CHECK-NEXT:           #02 pc 0x{{[0-9a-f]+}} {{.*}}(/{{.*}}libc.so.6){{$}}
// CHECK-NEXT: *** *** ***
// CHECK: mdebug: SUMMARY: 1 error (1 double free)
// OFF: freed again by free at {{.*}}double_free_stacks.c:13:57 (release_again)
// OFF-NOT: Backtrace
// OFF: mdebug: SUMMARY: 1 error (1 double free)
