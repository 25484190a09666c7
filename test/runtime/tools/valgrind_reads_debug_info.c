// Proves: a program built with mdebug can be run under Valgrind: the
// runtime's debug information is DWARF 4, which Debian 12's Valgrind reads
// (with clang 14's DWARF 5 it gave up: "Possibly corrupted debuginfo file").
// The program is correct, so mdebug reports nothing and it exits 0.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: valgrind --tool=none %t 2>&1 | %FileCheck %s
// CHECK: 100 blocks allocated and freed
// CHECK-NOT: mdebug
// CHECK-NOT: corrupted debuginfo
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  void *p[100];
  for (int i = 0; i < 100; i++)
    p[i] = malloc(16 + i);
  for (int i = 0; i < 100; i++)
    free(p[i]);
  printf("100 blocks allocated and freed\n");
  return 0;
}
