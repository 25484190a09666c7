// Proves: mdebug_dump_heap(path) returns 0 after writing a well-formed
// v1.2 heap dump (checked line by line) that merges blocks of equal size
// and stack into one record (num 10), keeps equal sizes from different
// stacks apart, sorts records by size (descending) and names frames that
// resolve to the program's functions. Without backtrace the dump says
// "Backtrace size: 0" and merges by size alone.
// RUN: %mdebug_clang -O1 -g -I%mdebug_include %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace %t %t.dump 2>&1 | %FileCheck %s --check-prefix=LOG
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dump | %FileCheck %s
// RUN: %t %t.dump 2>&1 | %FileCheck %s --check-prefix=LOG
// RUN: %python %S/../../Inputs/heap_dump_check.py --summary %t.dump | %FileCheck %s --check-prefix=NOBT
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>

void *kept[13];
__attribute__((noinline)) void *from_loop(size_t n) { return malloc(n); }
__attribute__((noinline)) void *from_single(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  for (int i = 0; i < 10; i++)
    kept[i] = from_loop(48);
  kept[10] = from_single(48);
  kept[11] = from_single(4000);
  kept[12] = from_single(7);
  int rc = mdebug_dump_heap(argv[1]);
  fprintf(stderr, "mdebug_dump_heap returned %d\n", rc);
  return 0;
}
// LOG: mdebug: Dumping to file: {{.*}}dump_heap_api.c.tmp.dump
// LOG-NEXT: mdebug_dump_heap returned 0
// CHECK: total {{[0-9]+}} records {{[0-9]+}} backtrace 16
// CHECK-NEXT: sz 4000 num 1 frames 3 bt from_single main [libc.so.6]
// CHECK: sz 48 num 10 frames 3 bt from_loop main [libc.so.6]
// CHECK-NEXT: sz 48 num 1 frames 3 bt from_single main [libc.so.6]
// CHECK: sz 7 num 1 frames 3 bt from_single main [libc.so.6]
// CHECK-NEXT: heap dump OK
// NOBT: total {{[0-9]+}} records {{[0-9]+}} backtrace 0
// NOBT-NEXT: sz 4000 num 1 frames 0
// NOBT: sz 48 num 11 frames 0
// NOBT: sz 7 num 1 frames 0
// NOBT-NEXT: heap dump OK
