// Proves: mdebug_ignore() of an address inside a mapping (not its start)
// keeps that mapping out of the leak report, and what it points to too (it
// is scanned as a root); another lost mapping is still reported.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "leak_check_util.h"

#define MIB (1 << 20)

static __attribute__((noinline)) void **map(size_t n) {
  return mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
              -1, 0);
}

static __attribute__((noinline)) void lose(int clean) {
  void **kept = map(MIB + 4096);
  kept[9] = malloc(33);
  mdebug_ignore(kept + 500);
  void **lost = map(MIB + 2 * 4096);
  if (clean)
    munmap(lost, MIB + 2 * 4096);
}

int main(int argc, char **argv) {
  lose(argc > 1);
  scrub_stack();
  printf("done\n");
  return 0;
}
// CHECK: mdebug: 1056768 bytes leaked in 1 mapping (1 direct, 0 indirect)
// CHECK-NEXT: Direct leak of 1056768 bytes in 1 mapping:
// CHECK: mdebug: SUMMARY: 0 errors, 1056768 bytes leaked in 1 mapping
// CLEAN-NOT: mdebug
// CLEAN: done
// CLEAN-NOT: mdebug
