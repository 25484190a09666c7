// Proves: fork while other threads allocate (small and large blocks), map
// and unmap, create and join threads, take leak checks and write heap
// dumps, all in loops, neither deadlocks nor leaves the child a lock it
// cannot take: each of 40 children allocates, maps, starts a thread, takes
// a leak check of its own (which stops its world again, reading
// /proc/self/task afresh) and writes a heap dump, then exits 0; an alarm
// turns a hang into a failure. The children's output goes
// to /dev/null (blocks the busy threads held at the fork are leaks there).
// The parent's own leak checks find nothing, and the last one runs after
// the loop.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %mdebug_clang -g %s -o %t -pthread
// RUN: %t %t.dir 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="backtrace quarantine_size=4096" %t %t.dir 2>&1 | %FileCheck %s
// CHECK-NOT: mdebug: ERROR
// CHECK: children exited cleanly: 40 of 40
// CHECK-NEXT: leaks found by the parent: 0
#include <fcntl.h>
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { FORKS = 40 };
static volatile int stop;
static size_t parent_leaks;
static char parent_dump[4096], child_dump[4096];

static void *allocator(void *arg) {
  size_t n = 1;
  while (!stop) {
    char *p = malloc(n), *big = malloc(n * 300); /* to the secondary too */
    memset(p, 1, n);
    big[0] = 1;
    free(big);
    free(p);
    n = n % 2000 + 7;
  }
  return arg;
}

static void *mapper(void *arg) {
  while (!stop) {
    char *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
      abort();
    m[4096] = 1;
    munmap(m, 1 << 20);
  }
  return arg;
}

static void *nothing(void *arg) { return arg; }

static void *spawner(void *arg) {
  while (!stop) {
    pthread_t t;
    if (pthread_create(&t, NULL, nothing, NULL) == 0)
      pthread_join(t, NULL);
  }
  return arg;
}

static void *checker(void *arg) {
  while (!stop)
    parent_leaks += mdebug_check_leaks();
  return arg;
}

static void *dumper(void *arg) {
  while (!stop)
    if (mdebug_dump_heap(parent_dump) != 0)
      abort();
  return arg;
}

static void child_work(void) {
  alarm(10);
  int null = open("/dev/null", O_WRONLY);
  dup2(null, 2);
  char *blocks[100];
  for (int k = 0; k < 100; k++)
    blocks[k] = malloc((size_t)k * 1300 + 1);
  for (int k = 0; k < 100; k++)
    free(blocks[k]);
  char *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    _exit(3);
  munmap(m, 1 << 20);
  pthread_t t;
  if (pthread_create(&t, NULL, nothing, NULL) != 0)
    _exit(4);
  pthread_join(t, NULL);
  mdebug_check_leaks();
  if (mdebug_dump_heap(child_dump) != 0)
    _exit(5);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  alarm(120);
  snprintf(parent_dump, sizeof(parent_dump), "%s/parent.txt", argv[1]);
  snprintf(child_dump, sizeof(child_dump), "%s/child.txt", argv[1]);
  void *(*jobs[])(void *) = {allocator, allocator, mapper,
                             spawner,   checker,   dumper};
  enum { JOBS = sizeof(jobs) / sizeof(jobs[0]) };
  pthread_t threads[JOBS];
  for (int t = 0; t < JOBS; t++)
    pthread_create(&threads[t], NULL, jobs[t], NULL);
  int clean = 0;
  for (int i = 0; i < FORKS; i++) {
    usleep(2000); /* the threads get going: the fork lands mid-check */
    pid_t pid = fork();
    if (pid < 0)
      return 2;
    if (pid == 0) {
      child_work();
      _exit(0);
    }
    int status;
    if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0)
      clean++;
  }
  stop = 1;
  for (int t = 0; t < JOBS; t++)
    pthread_join(threads[t], NULL);
  parent_leaks += mdebug_check_leaks();
  fprintf(stderr, "children exited cleanly: %d of %d\n", clean, FORKS);
  fprintf(stderr, "leaks found by the parent: %zu\n", parent_leaks);
  return clean == FORKS ? 0 : 1;
}
