// Proves: a leak made in a forked child is reported by the child itself
// (its own pid in the report) when it exits, and the parent, which leaked
// nothing, reports nothing.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static char *child_work(void) { return malloc(48); }

int main(int argc, char **argv) {
  fprintf(stderr, "parent pid %d\n", (int)getpid());
  pid_t pid = fork();
  if (pid < 0)
    return 2;
  if (pid == 0) {
    fprintf(stderr, "child pid %d\n", (int)getpid());
    char *result = child_work();
    if (argc > 1)
      free(result);
    result = NULL; /* main's frame is alive at exit(): drop it first */
    exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  fprintf(stderr, "parent: child exited with %d\n",
          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
// CHECK: parent pid [[PARENT:[0-9]+]]
// CHECK-NEXT: child pid [[CHILD:[0-9]+]]
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid [[CHILD]], tid [[CHILD]])
// CHECK-NEXT: mdebug: 48 bytes leaked in 1 block
// CHECK-NEXT: 48 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}child_leak.c:12:40 (child_work)
// CHECK-NEXT: +++ {{.*}} leaked block of size 48 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 48 bytes leaked in 1 block
// CHECK-NEXT: parent: child exited with 23
// CHECK-NOT: mdebug
// CLEAN: parent pid
// CLEAN-NEXT: child pid
// CLEAN-NEXT: parent: child exited with 0
// CLEAN-NOT: mdebug
