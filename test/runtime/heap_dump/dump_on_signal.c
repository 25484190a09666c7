// Proves: with backtrace, SIGRTMAX-17 makes the service thread write a
// well-formed heap dump to PREFIX.PID.txt (backtrace_dump_prefix, or its
// short name bt_dmp_pre) while the program carries on, holding the block
// the program keeps with its stack. Without backtrace, a program that
// ignores the signal itself (its SIG_IGN replaces mdebug's handler) gets
// no dump.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_dump_prefix=%t.d/heap" %t %t.d/heap 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.d/heap.*.txt | %FileCheck %s --check-prefix=DUMP
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="bt bt_dmp_pre=%t.d/heap" %t %t.d/heap 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.d/heap.*.txt | %FileCheck %s --check-prefix=DUMP
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace_dump_prefix=%t.d/heap" %t %t.d/heap ignore 2>&1 | %FileCheck %s --check-prefix=OFF
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"

void *kept;
__attribute__((noinline)) void keep(void) { kept = malloc(3210); }

int main(int argc, char **argv) {
  char path[4096];
  keep();
  snprintf(path, sizeof(path), "%s.%d.txt", argv[1], (int)getpid());
  if (argc > 2) {
    signal(SIGRTMAX - 17, SIG_IGN);
    raise(SIGRTMAX - 17);
    usleep(300000);
    printf("%s\n", access(path, F_OK) == 0 ? "dump written" : "no dump");
    return 0;
  }
  printf("pid %d\n", (int)getpid());
  fflush(stdout);
  raise(SIGRTMAX - 17);
  printf("%s\n", wait_for_file_ending(path, "END\n") ? "dump complete" : "timed out");
  return 0;
}
// CHECK: pid [[PID:[0-9]+]]
// CHECK-DAG: mdebug: Dumping to file: {{.*}}.d/heap.[[PID]].txt
// CHECK-DAG: dump complete
// DUMP: sz 3210 num 1 frames 3 bt keep main [libc.so.6]
// DUMP: heap dump OK
// OFF-NOT: Dumping
// OFF: no dump
