// Proves: in a forked child, SIGRTMAX-17 is still answered (the child gets
// its own service thread) and the dump is named with the child's pid, not
// the parent's, and lists the block only the child allocated.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_dump_prefix=%t.d/heap" %t %t.d/heap 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.d/heap.*.txt | %FileCheck %s --check-prefix=DUMP
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"

void *kept;
__attribute__((noinline)) void child_keeps(void) { kept = malloc(5678); }

int main(int argc, char **argv) {
  char path[4096];
  pid_t child = fork();
  if (child == 0) {
    child_keeps();
    snprintf(path, sizeof(path), "%s.%d.txt", argv[1], (int)getpid());
    raise(SIGRTMAX - 17);
    _exit(wait_for_file_ending(path, "END\n") ? 0 : 1);
  }
  int status;
  waitpid(child, &status, 0);
  printf("parent %d, child %d exited %d\n", (int)getpid(), (int)child,
         WEXITSTATUS(status));
  snprintf(path, sizeof(path), "%s.%d.txt", argv[1], (int)getpid());
  printf("parent dump %s\n", access(path, F_OK) == 0 ? "exists" : "absent");
  snprintf(path, sizeof(path), "%s.%d.txt", argv[1], (int)child);
  printf("child dump %s\n", access(path, F_OK) == 0 ? "exists" : "absent");
  return 0;
}
// CHECK: mdebug: Dumping to file: {{.*}}.d/heap.[[CHILD:[0-9]+]].txt
// CHECK: parent {{[0-9]+}}, child [[CHILD]] exited 0
// CHECK-NEXT: parent dump absent
// CHECK-NEXT: child dump exists
// DUMP: sz 5678 num 1 frames 3 bt child_keeps main [libc.so.6]
// DUMP: heap dump OK
