// Proves: leak_track's exit report (every block still allocated) prints
// each group's allocation stack when backtrace is on, and none without.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS="leak_track backtrace" %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="leak_track" %not %t 2>&1 | %FileCheck %s --check-prefix=OFF
#include <stdlib.h>

void *kept;
__attribute__((noinline)) void keep(void) { kept = malloc(61); }

int main(void) {
  keep();
  return 0;
}
// CHECK: (leak_track: every block still allocated at exit)
// CHECK: allocated by malloc at {{.*}}leak_track_stack.c:9:52 (keep)
// CHECK-NEXT: Backtrace at time of allocation:
// CHECK-NEXT: #00 pc 0x{{[0-9a-f]+}} in keep{{[+ ].*}} ({{.*}})
// CHECK-NEXT: #01 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}})
// CHECK-NEXT: #02 pc 0x{{[0-9a-f]+}} {{.*}}(/{{.*}}libc.so.6){{$}}
// CHECK-NEXT: +++ {{.*}} leaked block of size 61
// OFF: allocated by malloc at {{.*}}leak_track_stack.c:9:52 (keep)
// OFF-NEXT: +++ {{.*}} leaked block of size 61
