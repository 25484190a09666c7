// Proves: mdebug_ignore() of a pointer that is not a live block allocated by
// mdebug (a global's address, a pointer into a block, a freed block) says so
// in one line each, "mdebug_ignore(0x...): not a live block allocated by
// mdebug; ignored", and changes nothing: the program carries on and ends
// with its own status, 0. mdebug_ignore(NULL) is silent. The clean run
// ignores only a real block.
// RUN: %mdebug_clang -g -I%mdebug_include %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>

static int not_a_block;
static char *kept;

int main(int argc, char **argv) {
  kept = malloc(32);
  mdebug_ignore(NULL);
  mdebug_ignore(kept);
  if (argc == 1) {
    fprintf(stderr, "global at %p\n", (void *)&not_a_block);
    mdebug_ignore(&not_a_block);
    fprintf(stderr, "interior at %p\n", (void *)(kept + 8));
    mdebug_ignore(kept + 8);
    char *freed = malloc(16);
    free(freed);
    fprintf(stderr, "freed at %p\n", (void *)freed);
    mdebug_ignore(freed);
  }
  fprintf(stderr, "carried on\n");
  return 0;
}
// CHECK: global at [[GLOBAL:0x[0-9a-f]+]]
// CHECK-NEXT: mdebug: mdebug_ignore([[GLOBAL]]): not a live block allocated by mdebug; ignored
// CHECK-NEXT: interior at [[INTERIOR:0x[0-9a-f]+]]
// CHECK-NEXT: mdebug: mdebug_ignore([[INTERIOR]]): not a live block allocated by mdebug; ignored
// CHECK-NEXT: freed at [[FREED:0x[0-9a-f]+]]
// CHECK-NEXT: mdebug: mdebug_ignore([[FREED]]): not a live block allocated by mdebug; ignored
// CHECK-NEXT: carried on
// CHECK-NEXT: exit status: 0
// CLEAN-NOT: mdebug
// CLEAN: carried on
// CLEAN-NOT: mdebug
