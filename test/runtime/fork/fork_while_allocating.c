// Proves: fork while other threads are allocating and freeing does not
// deadlock: 50 children forked in a row each allocate, free and exit 0 (an
// alarm turns a hang into a failure). The children _exit, because blocks
// that a busy thread held at the moment of the fork stay live in the child.
// A last child, forked once the threads have stopped, exits normally and
// its leak is reported.
// RUN: %mdebug_clang -g %s -o %t -pthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { FORKS = 50, BUSY_THREADS = 2 };
static volatile int stop;

static void *busy(void *arg) {
  size_t n = 1;
  while (!stop) {
    char *p = malloc(n);
    memset(p, 1, n);
    free(p);
    n = n % 2000 + 7;
  }
  return arg;
}

static void child_work(void) {
  alarm(10);
  char *blocks[100];
  for (int k = 0; k < 100; k++)
    blocks[k] = malloc((size_t)k * 13 + 1);
  for (int k = 0; k < 100; k++)
    free(blocks[k]);
}

static int wait_clean(pid_t pid) {
  int status;
  return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv) {
  alarm(60);
  pthread_t threads[BUSY_THREADS];
  for (int t = 0; t < BUSY_THREADS; t++)
    pthread_create(&threads[t], NULL, busy, NULL);
  int clean_children = 0;
  for (int i = 0; i < FORKS; i++) {
    pid_t pid = fork();
    if (pid < 0)
      return 2;
    if (pid == 0) {
      child_work();
      _exit(0);
    }
    clean_children += wait_clean(pid);
  }
  stop = 1;
  for (int t = 0; t < BUSY_THREADS; t++)
    pthread_join(threads[t], NULL);
  fprintf(stderr, "children exited cleanly: %d of %d\n", clean_children, FORKS);

  pid_t last = fork();
  if (last == 0) {
    child_work();
    if (argc == 1)
      malloc(21); /* the bug: never freed */
    exit(0);
  }
  int last_clean = wait_clean(last);
  fprintf(stderr, "last child exited cleanly: %d\n", last_clean);
  return clean_children == FORKS && last_clean ? 0 : 1;
}
// CHECK: children exited cleanly: 50 of 50
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 21 bytes leaked in 1 block
// CHECK-NEXT: 21 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}fork_while_allocating.c:71:7 (main)
// CHECK: mdebug: SUMMARY: 0 errors, 21 bytes leaked in 1 block
// CHECK-NEXT: last child exited cleanly: 0
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: children exited cleanly: 50 of 50
// CLEAN-NEXT: last child exited cleanly: 1
// CLEAN-NOT: mdebug
