// Proves: a heap dump lists, in mdebug's extension section between the
// records and MAPS, the totals by category, every site by bytes, and every
// mapping (range, size, protection, flags, stack with `backtrace`, site)
// and thread stack; the checker finds every category's total equal to its
// sites and lines, and no line of the section Android's tools would read
// (none starts "z " or looks like a maps line). With `backtrace` a leaked
// mapping's report carries its stack.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS="backtrace mapping_leaks_fail" %not %t %t.dir/dump.txt 2>&1 | %FileCheck %s --check-prefix=REPORT
// RUN: %python %S/../../Inputs/heap_dump_check.py --extension %t.dir/dump.txt | %FileCheck %s
#define _GNU_SOURCE
#include <fcntl.h>
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096

static char *anon, *file, *blocks[3];
static int gate[2], started[2];

static void *blocked(void *arg) {
  char c;
  write(started[1], "s", 1);
  read(gate[0], &c, 1);
  return arg;
}

static __attribute__((noinline)) void make_file_mapping(void) {
  int fd = memfd_create("dumped", 0);
  if (fd < 0 || ftruncate(fd, 3 * PAGE) != 0)
    abort();
  file = mmap(NULL, 3 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
}

int main(int argc, char **argv) {
  anon = mmap(NULL, 5 * PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  make_file_mapping();
  for (int i = 0; i < 3; i++)
    blocks[i] = malloc(1000);
  pthread_t t;
  char c;
  if (argc < 2 || pipe(gate) != 0 || pipe(started) != 0 ||
      pthread_create(&t, NULL, blocked, NULL) || read(started[0], &c, 1) != 1)
    return 2;
  mdebug_dump_heap(argv[1]);
  write(gate[1], "x", 1);
  pthread_join(t, NULL);
  anon = NULL; /* lost */
  return 0;
}
// CHECK: mdebug total heap_blocks bytes {{[0-9]+}} count {{[0-9]+}}
// CHECK-NEXT: mdebug total mappings bytes 32768 count 2
// CHECK-NEXT: mdebug total thread_stacks bytes {{[0-9]+}} count 1
// CHECK-NEXT: mdebug site thread_stacks bytes {{[0-9]+}} count 1 by pthread_create at {{.*}}dump_extension.c:50:7 (main)
// CHECK-NEXT: mdebug site mappings bytes 20480 count 1 by mmap at {{.*}}dump_extension.c:42:10 (main)
// CHECK-NEXT: mdebug site mappings bytes 12288 count 1 by mmap at {{.*}}dump_extension.c:37:10 (make_file_mapping)
// CHECK-NEXT: mdebug site heap_blocks bytes 3000 count 3 by malloc at {{.*}}dump_extension.c:46:17 (main)
// CHECK: mdebug mapping {{[0-9a-f]+}}-{{[0-9a-f]+}} sz {{20480 rwx private anonymous|12288 r-- shared file}} bt {{[0-9a-f]+( [0-9a-f]+)+}} by mmap at
// CHECK-NEXT: mdebug mapping {{[0-9a-f]+}}-{{[0-9a-f]+}} sz {{20480 rwx private anonymous|12288 r-- shared file}} bt {{[0-9a-f]+( [0-9a-f]+)+}} by mmap at
// CHECK-NEXT: mdebug thread_stack {{[0-9a-f]+}}-{{[0-9a-f]+}} sz {{[0-9]+}} guard 4096 running bt {{[0-9a-f]+( [0-9a-f]+)+}} by pthread_create at {{.*}}dump_extension.c:50:7 (main)
// CHECK: heap dump OK
//
// REPORT: Direct leak of 20480 bytes in 1 mapping:
// REPORT-NEXT:   allocated by mmap at {{.*}}dump_extension.c:42:10 (main)
// REPORT-NEXT: Backtrace at time of allocation:
// REPORT-NEXT: #00 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}dump_extension.c.tmp)
// REPORT: +++ {{.*}} leaked mapping of 20480 bytes at 0x{{[0-9a-f]+}} (rwx private anonymous)
