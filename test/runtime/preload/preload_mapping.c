// Proves: a program built with plain clang and started with
// LD_PRELOAD=libmdebug-rt.so has its mappings and thread stacks tracked,
// each charged to the caller's address, printed as malloc debug prints a
// frame (with the function, which the program exports): a lost mapping is
// reported, and a heap dump lists the thread's stack by the pthread_create
// call. The clean case unmaps it: no report.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %clang -g -rdynamic %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail LD_PRELOAD=%mdebug_rt_so %not %t %t.dir/dump.txt 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/heap_dump_check.py --extension %t.dir/dump.txt | %FileCheck %s --check-prefix=DUMP
// RUN: env LD_PRELOAD=%mdebug_rt_so %t %t.dir/clean.txt clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int mdebug_dump_heap(const char *path) __attribute__((weak));

static int gate[2], started[2];

void *blocked(void *arg) {
  char c;
  write(started[1], "s", 1);
  read(gate[0], &c, 1);
  return arg;
}

__attribute__((noinline)) char *make_mapping(void) {
  return mmap(NULL, 7 * 4096, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

int main(int argc, char **argv) {
  pthread_t t;
  char c;
  if (argc < 2 || pipe(gate) || pipe(started) ||
      pthread_create(&t, NULL, blocked, NULL) || read(started[0], &c, 1) != 1)
    return 2;
  char *p = make_mapping();
  if (mdebug_dump_heap)
    mdebug_dump_heap(argv[1]);
  write(gate[1], "x", 1);
  pthread_join(t, NULL);
  if (argc > 2)
    munmap(p, 7 * 4096);
  printf("done\n");
  return 0;
}
// CHECK: mdebug: 28672 bytes leaked in 1 mapping (1 direct, 0 indirect)
// CHECK-NEXT: Direct leak of 28672 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at pc 0x{{[0-9a-f]+}} in make_mapping{{[+ ].*}} ({{.*}}preload_mapping.c.tmp)
// CHECK-NEXT: +++ {{.*}} leaked mapping of 28672 bytes at 0x{{[0-9a-f]+}} (rw- private anonymous)
//
// DUMP: mdebug total mappings bytes 28672 count 1
// DUMP-NEXT: mdebug total thread_stacks bytes {{[1-9][0-9]*}} count 1
// DUMP-NEXT: mdebug site thread_stacks bytes {{[1-9][0-9]*}} count 1 by pthread_create at pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}preload_mapping.c.tmp)
// DUMP: mdebug site mappings bytes 28672 count 1 by mmap at pc 0x{{[0-9a-f]+}} in make_mapping{{[+ ].*}} ({{.*}}preload_mapping.c.tmp)
//
// CLEAN-NOT: mdebug: ERROR
// CLEAN: done
// CLEAN-NOT: mdebug
