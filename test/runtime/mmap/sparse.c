// Proves: the leak scan reads the pages of a large reservation that are in
// memory: a block whose only pointer lies 700 MiB into a 1 GiB mapping
// (MAP_NORESERVE, touched in that one page) kept through a global is not a
// leak; lost, the mapping is reported and the block with it (indirect).
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %t lose 2>&1 | %FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "leak_check_util.h"

static char *big;

static __attribute__((noinline)) void fill(int lose) {
  char *p = mmap(NULL, (size_t)1 << 30, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    abort();
  *(void **)(p + (700 << 20) + 24) = malloc(77);
  if (!lose)
    big = p;
}

int main(int argc, char **argv) {
  fill(argc > 1);
  scrub_stack();
  printf("done\n");
  return 0;
}
// CLEAN-NOT: mdebug
// CLEAN: done
// CLEAN-NOT: mdebug
// CHECK: mdebug: 1073741901 bytes leaked in 1 block and 1 mapping (1 direct, 1 indirect)
// CHECK-NEXT: Direct leak of 1073741824 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at {{.*}}sparse.c:17:13 (fill)
// CHECK: Indirect leak of 77 bytes in 1 block:
