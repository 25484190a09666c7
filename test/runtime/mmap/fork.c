// Proves: a forked child does not report the mappings it inherited (one its
// parent lost, one its parent keeps), and reports the one it loses itself;
// the parent reports its own lost mapping, once; the stack of the parent's
// other thread is not accounted in the child (its dump counts no thread
// stack), and still is in the parent.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %t %t.dir 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --extension %t.dir/child.txt | %FileCheck %s --check-prefix=CHILD
// RUN: %python %S/../../Inputs/heap_dump_check.py --extension %t.dir/parent.txt | %FileCheck %s --check-prefix=PARENT
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leak_check_util.h"

#define MIB (1 << 20)

static char *kept;
static int gate[2], started[2];

static __attribute__((noinline)) void *map(size_t n) {
  return mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
              -1, 0);
}

static void *blocked(void *arg) {
  char c;
  write(started[1], "s", 1);
  while (read(gate[0], &c, 1) > 0)
    ;
  return arg;
}

static void dump(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  mdebug_dump_heap(path);
}

static __attribute__((noinline)) void lose_in_parent(void) {
  map(MIB + 3 * 4096);
}

static __attribute__((noinline)) void lose_in_child(void) {
  map(MIB + 5 * 4096);
}

int main(int argc, char **argv) {
  kept = map(MIB + 4096);
  lose_in_parent();
  pthread_t t;
  char c;
  if (argc < 2 || pipe(gate) != 0 || pipe(started) != 0 ||
      pthread_create(&t, NULL, blocked, NULL) || read(started[0], &c, 1) != 1)
    return 2;
  scrub_stack();
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dump(argv[1], "child.txt");
    lose_in_child();
    scrub_stack();
    fprintf(stderr, "child exits\n");
    exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  fprintf(stderr, "child status %d\n", WEXITSTATUS(status));
  dump(argv[1], "parent.txt");
  close(gate[1]);
  pthread_join(t, NULL);
  fprintf(stderr, "parent exits\n");
  return 0;
}
// CHECK: child exits
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid [[CPID:[0-9]+]], tid [[CPID]])
// CHECK-NEXT: mdebug: 1069056 bytes leaked in 1 mapping (1 direct, 0 indirect)
// CHECK-NEXT: Direct leak of 1069056 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at {{.*}}fork.c:27:10 (map)
// CHECK: mdebug: SUMMARY: 0 errors, 1069056 bytes leaked in 1 mapping
// CHECK-NEXT: child status 23
// CHECK-NEXT: mdebug: Dumping to file: {{.*}}parent.txt
// CHECK-NEXT: parent exits
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid [[PPID:[0-9]+]], tid [[PPID]])
// CHECK-NEXT: mdebug: 1060864 bytes leaked in 1 mapping (1 direct, 0 indirect); 1 mapping (1052672 bytes) still reachable
// CHECK: mdebug: SUMMARY: 0 errors, 1060864 bytes leaked in 1 mapping
// CHECK-NOT: mdebug
//
// CHILD: mdebug total mappings bytes 2113536 count 2
// CHILD-NEXT: mdebug total thread_stacks bytes 0 count 0
// PARENT: mdebug total mappings bytes 2113536 count 2
// PARENT-NEXT: mdebug total thread_stacks bytes {{[1-9][0-9]*}} count 1
