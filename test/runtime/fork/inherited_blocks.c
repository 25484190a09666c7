// Proves: blocks the parent allocated before fork, and still holds in a
// global, are not the child's leaks: a child that does its work and calls
// exit() reports nothing, while a block the child itself allocates and
// drops is reported by the child.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char **table; /* the parent's state, reachable from a global */

int main(int argc, char **argv) {
  table = calloc(4, sizeof *table);
  for (int i = 0; i < 4; i++)
    table[i] = strdup("parent entry");
  pid_t pid = fork();
  if (pid < 0)
    return 2;
  if (pid == 0) {
    char *answer = malloc(30);
    snprintf(answer, 30, "child read %s", table[0]);
    if (argc > 1)
      free(answer);
    answer = NULL; /* main's frame is alive at exit(): drop it first */
    exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  for (int i = 0; i < 4; i++)
    free(table[i]);
  free(table);
  fprintf(stderr, "parent: child exited with %d\n",
          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 30 bytes leaked in 1 block
// CHECK-NEXT: 30 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}inherited_blocks.c:24:20 (main)
// CHECK-NEXT: +++ {{.*}} leaked block of size 30 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 30 bytes leaked in 1 block
// CHECK-NEXT: parent: child exited with 23
// CLEAN-NOT: mdebug
// CLEAN: parent: child exited with 0
// CLEAN-NOT: mdebug
