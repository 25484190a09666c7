// Proves: after fork, parent and child each serve their own signals: heap
// dumps the parent asks for (SIGRTMAX-17 to itself) while a forked child
// is alive are all written by the parent, under the parent's pid, and none
// is taken by the child (whose service thread starts anew).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_dump_prefix=%t.dir/heap" %t %t.dir 2>&1 | %FileCheck %s
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap_ms(int ms) {
  struct timespec t = {0, ms * 1000000L};
  while (nanosleep(&t, &t) != 0)
    ;
}

static int exists(const char *dir, int pid) {
  char path[4096];
  struct stat st;
  snprintf(path, sizeof(path), "%s/heap.%d.txt", dir, pid);
  return stat(path, &st) == 0;
}

int main(int argc, char **argv) {
  void *keep = malloc(100);
  int to_child[2];
  if (pipe(to_child) != 0)
    return 1;
  pid_t child = fork();
  if (child == 0) {
    char c;
    close(to_child[1]);
    while (read(to_child[0], &c, 1) != 0) /* until the parent is done */
      ;
    _exit(0);
  }
  close(to_child[0]);
  int parent_dumps = 0;
  for (int round = 0; round < 6; round++) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/heap.%d.txt", argv[1], getpid());
    unlink(path);
    raise(SIGRTMAX - 17);
    for (int waited = 0; waited < 2000 && !exists(argv[1], getpid()); waited += 10)
      nap_ms(10);
    parent_dumps += exists(argv[1], getpid());
  }
  close(to_child[1]);
  waitpid(child, NULL, 0);
  printf("parent dumps: %d of 6; child dumps: %d\n", parent_dumps,
         exists(argv[1], child));
  free(keep);
  return 0;
}
// CHECK: parent dumps: 6 of 6; child dumps: 0
