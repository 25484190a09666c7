// Proves: the exit-time leak check runs after the program filled its
// address space (ulimit -v) and freed it all: mdebug keeps an address-space
// reserve for the check from start-up and gives it back to the check, so a
// clean program exits 0 (it exited 23 with "leak check could not run") and
// a block lost after the fill is still reported.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: sh -c 'ulimit -v 400000 && %python %S/../../Inputs/exit_status.py %t' 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: sh -c 'ulimit -v 400000 && %python %S/../../Inputs/exit_status.py %t lose' 2>&1 | %FileCheck %s
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  void **list = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    void *p = malloc(4000);
    if (!p)
      break;
    if (n == cap) {
      cap = cap ? cap * 2 : 1024;
      void **bigger = realloc(list, cap * sizeof(void *));
      if (!bigger) {
        free(p);
        break;
      }
      list = bigger;
    }
    list[n++] = p;
  }
  printf("filled: %d\n", n > 1000);
  for (size_t i = 0; i < n; i++)
    free(list[i]);
  free(list);
  if (argc > 1) {
    char *lost = malloc(55);
    lost[0] = 1;
    lost = NULL;
  }
  return 0;
}
// CLEAN: filled: 1
// CLEAN-NOT: mdebug
// CLEAN: exit status: 0
// CHECK: filled: 1
// CHECK-NOT: could not run
// CHECK: Direct leak of 55 bytes in 1 block:
// CHECK: mdebug: SUMMARY: 0 errors, 55 bytes leaked in 1 block
// CHECK: exit status: 23
