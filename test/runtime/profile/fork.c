// Proves: a forked child writes a profile of its own, PREFIX.CHILDPID.mdprof
// (header, sites, its own snapshots and exit), and the parent's file gets
// none of the child's records; the child's totals start from what it
// inherited. The clean case: a process that does not fork writes one file.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/prof" %t fork > %t.pids
// RUN: ls %t.d | count 2
// RUN: %python %S/Inputs/by_pid.py %t.pids %t.d/prof parent | %FileCheck %s --check-prefix=PARENT
// RUN: %python %S/Inputs/by_pid.py %t.pids %t.d/prof child | %FileCheck %s --check-prefix=CHILD
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/prof" %t
// RUN: ls %t.d | count 1
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *before, *in_child, *in_parent;

int main(int argc, char **argv) {
  before = malloc(111);
  if (argc < 2)
    return 0;
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    in_child = malloc(222);
    mdebug_snapshot("child");
    printf("child %d\n", (int)getpid());
    return 0;
  }
  waitpid(child, NULL, 0);
  in_parent = malloc(333);
  mdebug_snapshot("parent");
  printf("parent %d\n", (int)getpid());
  return 0;
}
// PARENT: H pid=[[PID:[0-9]+]]
// PARENT-NOT: child
// PARENT: A 0 {{[0-9]+}} {{[0-9]+}} parent
// PARENT-NOT: child
// PARENT: A 1 {{[0-9]+}} {{[0-9]+}} exit
// PARENT-NOT: child
// CHILD: H pid=[[PID:[0-9]+]]
// CHILD-NOT: parent
// CHILD: B 0 {{[0-9a-f]+}} 111
// CHILD-NOT: parent
// CHILD: B 0 {{[0-9a-f]+}} 222
// CHILD: A 1 {{[0-9]+}} {{[0-9]+}} exit
// CHILD-NOT: parent
