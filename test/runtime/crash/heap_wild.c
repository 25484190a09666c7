// Proves: a write far past a block (1 MiB), into heap memory that no block
// uses, faults and is reported as an invalid access that names the nearest
// block below the address (its size, its distance, its allocation site)
// and the writing instruction, with or without page_guard; a report of a
// fault does not abort even with abort_on_error (the signal ends the run:
// the exit status stays SIGSEGV's). The run without the bug prints nothing.
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t bug 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py env MDEBUG_OPTIONS=page_guard %t bug 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py env "MDEBUG_OPTIONS=abort_on_error" %t bug 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | count 0
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void poke(char *p, size_t at) { p[at] = 1; }

int main(int argc, char **argv) {
  /* A size class of its own: this is the only block of that class. */
  char *table = malloc(1000);
  table[0] = 0;
  if (argc > 1)
    poke(table, 1000 + (1 << 20));
  free(table);
  return 0;
}
// CHECK: mdebug: ERROR: invalid access in {{.*}}
// CHECK-NEXT: +++ INVALID WRITE AT 0x{{[0-9a-f]+}} (SIGSEGV, {{.*}})
// CHECK-NEXT:   0x{{[0-9a-f]+}} is 1048576 bytes after the end of a block of size 1000 at 0x{{[0-9a-f]+}}, the nearest block in mdebug's heap
// CHECK-NEXT:   allocated by malloc at {{.*}}heap_wild.c:19:17 (main)
// CHECK-NEXT:   write by the instruction at pc 0x{{[0-9a-f]+}} in poke{{[+ ].*}} ({{.*}}heap_wild.c.tmp)
// CHECK-NEXT: Backtrace at time of failure:
// CHECK-NEXT:   #00 pc 0x{{[0-9a-f]+}} in poke{{[+ ].*}} ({{.*}})
// CHECK-NEXT:   #01 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}})
// CHECK: mdebug: SUMMARY: 1 error (1 invalid access), then SIGSEGV (segmentation fault); leaks at exit not checked
// CHECK-NEXT: killed by signal 11
