// Proves: page_guard leaves room for the heap when the program holds many
// mappings of its own (here 20,000 kernel mappings): guarded blocks stop
// where vm.max_map_count, less what the process holds, allows, mdebug says
// so once, and every allocation still succeeds, unguarded (malloc returned
// NULL for about half of 45,000 calls when the guarded blocks took the
// mappings the heap needed to grow). The clean case holds no mappings of
// its own: the same blocks, guarded up to the usual cap.
// REQUIRES: default-map-count
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: env MDEBUG_OPTIONS=page_guard %t 10000 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=page_guard %t 0 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define BLOCKS 45000
static void *blocks[BLOCKS];

int main(int argc, char **argv) {
  int pairs = atoi(argv[1]);
  static char *maps[30000];
  for (int i = 0; i < pairs; i++) {
    maps[i] = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(maps[i], 4096, PROT_READ); /* two mappings, never merged */
  }
  int nulls = 0;
  for (int i = 0; i < BLOCKS; i++)
    nulls += !(blocks[i] = malloc(64 + i % 512));
  printf("%d of %d allocations failed\n", nulls, BLOCKS);
  for (int i = 0; i < BLOCKS; i++)
    free(blocks[i]);
  for (int i = 0; i < pairs; i++)
    munmap(maps[i], 8192);
  return 0;
}
// CHECK: mdebug: page_guard: {{[0-9]+}} page-guarded blocks are live, as many as vm.max_map_count ({{[0-9]+}}) allows with the mappings the program holds, or no slot is free; further blocks are not guarded until some are freed
// CHECK-NOT: mdebug
// CHECK: 0 of 45000 allocations failed
// CHECK-NOT: mdebug
// CLEAN: 0 of 45000 allocations failed
