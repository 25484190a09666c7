// Proves: in a forked child, SIGRTMAX-17 is answered by the child (it gets
// its own service thread): each of five dumps the child asks for is named
// with the child's pid and lists the block only the child allocated; the
// parent, which never raised the signal, writes no dump.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_dump_prefix=%t.d/heap" %t %t.d/heap 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.d/heap.*.txt | %FileCheck %s --check-prefix=DUMP
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"

#define ROUNDS 5

void *kept;
__attribute__((noinline)) void child_keeps(void) { kept = malloc(5678); }

/* Which of the two files is written completely first (up to 5 s). */
static const char *first_dump(const char *mine, const char *parents) {
  char tail[4];
  for (int i = 0; i < 500; i++) {
    if (wait_file_tail(mine, tail, 4) == 0 && memcmp(tail, "END\n", 4) == 0)
      return "child";
    if (wait_file_tail(parents, tail, 4) == 0 && memcmp(tail, "END\n", 4) == 0)
      return "parent";
    usleep(10000);
  }
  return "none";
}

int main(int argc, char **argv) {
  char mine[4096], parents[4096];
  snprintf(parents, sizeof(parents), "%s.%d.txt", argv[1], (int)getpid());
  setvbuf(stdout, NULL, _IONBF, 0);
  pid_t child = fork();
  if (child == 0) {
    child_keeps();
    snprintf(mine, sizeof(mine), "%s.%d.txt", argv[1], (int)getpid());
    for (int r = 0; r < ROUNDS; r++) {
      unlink(mine);
      unlink(parents);
      raise(SIGRTMAX - 17);
      printf("round %d: dumped by the %s\n", r, first_dump(mine, parents));
    }
    _exit(0);
  }
  int status;
  waitpid(child, &status, 0);
  printf("parent %d, child %d exited %d\n", (int)getpid(), (int)child,
         WEXITSTATUS(status));
  printf("parent dump %s\n", access(parents, F_OK) == 0 ? "exists" : "absent");
  return 0;
}
// CHECK: mdebug: Dumping to file: {{.*}}.d/heap.[[CHILD:[0-9]+]].txt
// CHECK: round 0: dumped by the child
// CHECK: round 1: dumped by the child
// CHECK: round 2: dumped by the child
// CHECK: round 3: dumped by the child
// CHECK: round 4: dumped by the child
// CHECK-NEXT: parent {{[0-9]+}}, child [[CHILD]] exited 0
// CHECK-NEXT: parent dump absent
// DUMP: sz 5678 num 1 frames 3 bt child_keeps main [libc.so.6]
// DUMP: heap dump OK
