// Proves: a non-PIE program that takes malloc's address (as Python and node
// do: the executable's PLT entry becomes malloc's address everywhere) runs
// under mdebug-run with mdebug's heap active, not stopped as an "inactive
// copy": its lost block is reported, its output is its own. The clean case
// frees the block: no report, exit status 0.
// RUN: %clang -fno-pic -no-pie -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %mdebug_run %t 2>&1 | %FileCheck %s
// RUN: %mdebug_run %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  void *(*volatile alloc)(size_t) = malloc;
  void (*volatile release)(void *) = free;
  char *p = alloc(10);
  printf("allocated %d\n", p != NULL);
  if (argc > 1)
    release(p);
  return 0;
}
// CHECK-NOT: inactive copy
// CHECK: allocated 1
// CHECK: mdebug: ERROR: memory leak in {{.*}}nonpie_malloc_address.c.tmp
// CHECK: Direct leak of 10 bytes in 1 block:
// CHECK: mdebug: SUMMARY: 0 errors, 10 bytes leaked in 1 block
// CHECK: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: allocated 1
// CLEAN-NOT: mdebug
