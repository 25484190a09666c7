// Proves: when the record file cannot be created mdebug logs "Cannot create
// record alloc file PATH: <strerror>" (at exit: PATH is FILE.PID) and the
// program's exit status is unchanged.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.missing
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit record_allocs_file=%t.missing/rec" %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  free(malloc(10));
  fprintf(stderr, "pid %d\n", (int)getpid());
  return 3;
}
// CHECK: pid [[PID:[0-9]+]]
// CHECK-NEXT: mdebug: Cannot create record alloc file {{.*}}record_unwritable.c.tmp.missing/rec.[[PID]]: No such file or directory
// CHECK-NEXT: exit status: 3
