// Proves: with backtrace, the exit leak report prints the allocation stack
// under each group's site, and blocks from one site reached through
// different callers form separate groups (one per stack), each with its
// own stack. Without the option the same blocks form one group, no stack.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace %not %t 2>&1 | %FileCheck %s
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=OFF
#include <stdlib.h>
#include <string.h>

void *sink[3];
__attribute__((noinline)) void *make(void) {
  void *p = malloc(24);
  memset(p, 1, 24);
  return p;
}
__attribute__((noinline)) void from_alpha(void) {
  for (int i = 0; i < 2; i++)
    sink[i] = make(); /* one call site: one stack for both blocks */
}
__attribute__((noinline)) void from_beta(void) { sink[2] = make(); }

int main(void) {
  from_alpha();
  from_beta();
  memset(sink, 0, sizeof(sink));
  return 0;
}
// CHECK: mdebug: 72 bytes leaked in 3 blocks (3 direct, 0 indirect)
// CHECK-DAG: Direct leak of 48 bytes in 2 blocks:{{[[:space:]]+}}allocated by malloc at {{.*}}leak_groups_by_stack.c:13:13 (make){{[[:space:]]}}Backtrace at time of allocation:{{[[:space:]]+}}#00 pc 0x{{[0-9a-f]+}} in make{{[+ ].*}} ({{.*}}){{[[:space:]]+}}#01 pc 0x{{[0-9a-f]+}} in from_alpha{{[+ ].*}} ({{.*}}){{[[:space:]]+}}#02 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}})
// CHECK-DAG: Direct leak of 24 bytes in 1 block:{{[[:space:]]+}}allocated by malloc at {{.*}}leak_groups_by_stack.c:13:13 (make){{[[:space:]]}}Backtrace at time of allocation:{{[[:space:]]+}}#00 pc 0x{{[0-9a-f]+}} in make{{[+ ].*}} ({{.*}}){{[[:space:]]+}}#01 pc 0x{{[0-9a-f]+}} in from_beta{{[+ ].*}} ({{.*}}){{[[:space:]]+}}#02 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}})
// CHECK: mdebug: SUMMARY: 0 errors, 72 bytes leaked in 3 blocks
// OFF: Direct leak of 72 bytes in 3 blocks:
// OFF-NEXT: allocated by malloc at {{.*}}leak_groups_by_stack.c:13:13 (make)
// OFF-NOT: Backtrace
// OFF: mdebug: SUMMARY: 0 errors, 72 bytes leaked in 3 blocks
