// Proves: thread stacks are accounted with the site of the pthread_create
// that made them (the heap dump's extension: totals and sites); a joinable
// thread that exited but was not joined still counts (its stack is kept
// for the join); a join releases a stack, and so does the exit of a
// detached thread, detached at creation or by pthread_detach while it runs
// or after it exited; the stacks glibc then keeps in its cache count for
// nothing and are no leak; a thread running on a stack of its own
// (pthread_attr_setstack) is not accounted as a thread stack (its stack is
// the program's mapping).
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: %t %t.dir 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %python %S/../../Inputs/heap_dump_check.py --extension %t.dir/running.txt | %FileCheck %s --check-prefix=RUNNING
// RUN: %python %S/../../Inputs/heap_dump_check.py --extension %t.dir/done.txt | %FileCheck %s --check-prefix=DONE
#define _GNU_SOURCE
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int gate[2];
static volatile int tids[8];

static void *blocked(void *arg) {
  tids[(long)arg] = gettid();
  char c;
  while (read(gate[0], &c, 1) > 0)
    ;
  return NULL;
}

static void *quick(void *arg) {
  tids[(long)arg] = gettid();
  return NULL;
}

/* Until the kernel task is gone: its key destructors have run. */
static void wait_gone(long i) {
  char path[64];
  while (!tids[i])
    usleep(1000);
  snprintf(path, sizeof(path), "/proc/self/task/%d", tids[i]);
  for (int ms = 0; access(path, F_OK) == 0; ms++) {
    if (ms == 20000)
      abort();
    usleep(1000);
  }
}

static void dump(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  if (mdebug_dump_heap(path) != 0)
    abort();
}

int main(int argc, char **argv) {
  if (argc < 2 || pipe(gate) != 0)
    return 2;
  pthread_t j1, j2, d1, d2, e, f, u;
  pthread_attr_t detached, own;
  pthread_attr_init(&detached);
  pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
  pthread_attr_init(&own);
  size_t own_size = 256 << 10;
  void *own_stack = mmap(NULL, own_size, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  pthread_attr_setstack(&own, own_stack, own_size);
  for (long i = 0; i < 2; i++)
    pthread_create(i ? &j2 : &j1, NULL, blocked, (void *)i);
  pthread_create(&d1, &detached, blocked, (void *)2);
  pthread_create(&d2, NULL, blocked, (void *)3);
  pthread_detach(d2);
  pthread_create(&e, NULL, quick, (void *)4);
  pthread_create(&u, &own, blocked, (void *)5);
  wait_gone(4); /* e exited, not joined */
  for (long i = 0; i < 6; i++)
    while (!tids[i])
      usleep(1000);
  dump(argv[1], "running.txt");
  close(gate[1]); /* every blocked thread returns */
  pthread_join(j1, NULL);
  pthread_join(j2, NULL);
  pthread_join(e, NULL);
  pthread_join(u, NULL);
  pthread_create(&f, NULL, quick, (void *)6);
  wait_gone(6);
  pthread_detach(f); /* after it exited */
  wait_gone(2);
  wait_gone(3);
  dump(argv[1], "done.txt");
  munmap(own_stack, own_size);
  printf("done\n");
  return 0;
}
// CLEAN-NOT: mdebug: ERROR
// CLEAN: done
// CLEAN-NOT: mdebug: ERROR
//
// RUNNING: mdebug total mappings bytes 262144 count 1
// RUNNING-NEXT: mdebug total thread_stacks bytes {{[0-9]+}} count 5
// RUNNING-DAG: mdebug site thread_stacks bytes {{[0-9]+}} count 2 by pthread_create at {{.*}}thread_stacks.c:73:5 (main)
// RUNNING-DAG: mdebug site thread_stacks bytes {{[0-9]+}} count 1 by pthread_create at {{.*}}thread_stacks.c:74:3 (main)
// RUNNING-DAG: mdebug site thread_stacks bytes {{[0-9]+}} count 1 by pthread_create at {{.*}}thread_stacks.c:75:3 (main)
// RUNNING-DAG: mdebug site thread_stacks bytes {{[0-9]+}} count 1 by pthread_create at {{.*}}thread_stacks.c:77:3 (main)
// RUNNING-DAG: mdebug site mappings bytes 262144 count 1 by mmap at {{.*}}thread_stacks.c:69:21 (main)
// RUNNING-DAG: mdebug thread_stack {{[0-9a-f]+}}-{{[0-9a-f]+}} sz {{[0-9]+}} guard {{[0-9]+}} exited bt by pthread_create at {{.*}}thread_stacks.c:77:3 (main)
// RUNNING-NOT: thread_stacks.c:78
// RUNNING: heap dump OK
//
// DONE: mdebug total mappings bytes 262144 count 1
// DONE-NEXT: mdebug total thread_stacks bytes 0 count 0
// DONE-NOT: mdebug thread_stack
// DONE: heap dump OK
