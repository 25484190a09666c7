// Proves: after fork the child has a working copy of the runtime's state: it
// can allocate, free its own blocks and the parent's, and exit 0 with no
// report; a double free in the child of a block the parent allocated is
// reported by the child, with the parent's allocation site.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  char *inherited = malloc(40);
  strcpy(inherited, "from the parent");
  pid_t pid = fork();
  if (pid < 0)
    return 2;
  if (pid == 0) {
    fprintf(stderr, "child pid %d\n", (int)getpid());
    for (int i = 0; i < 1000; i++)
      free(malloc((size_t)i + 1));
    char *mine = strdup(inherited);
    free(mine);
    free(inherited);
    if (argc == 1)
      free(inherited);
    exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  free(inherited);
  fprintf(stderr, "parent: child exited with %d\n",
          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
// CHECK: child pid [[CHILD:[0-9]+]]
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: double free in {{.*}} (pid [[CHILD]], tid [[CHILD]])
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 40 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}child_clean.c:15:21 (main)
// CHECK-NEXT:   freed by free at {{.*}}child_clean.c:26:5 (main)
// CHECK-NEXT:   freed again by free at {{.*}}child_clean.c:28:7 (main)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CHECK-NEXT: parent: child exited with 23
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: parent: child exited with 0
// CLEAN-NOT: mdebug
