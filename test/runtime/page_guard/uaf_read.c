// Proves: with page_guard (every block on pages of its own), a read of a
// freed block faults at the read, in a program built with plain clang and
// run under the preloaded runtime, and is reported as a use after free
// naming the block's size, where it was allocated and freed (return
// addresses in the program) and the reading instruction (its function);
// the process still dies of SIGSEGV. The same program built with
// mdebug-clang names the sites by file and line. Without page_guard the
// read goes unseen (the block's bytes are mdebug's fill), and the run
// without the bug prints nothing.
// RUN: %clang -g -O0 %s -o %t.plain
// RUN: %python %S/../../Inputs/exit_status.py env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS=page_guard %t.plain 2>&1 | %FileCheck %s --check-prefixes=CHECK,PLAIN
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: env MDEBUG_OPTIONS=page_guard %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,SITES
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=OFF
// RUN: env MDEBUG_OPTIONS=page_guard %t clean 2>&1 | count 0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static int read_freed(int argc) {
  char *name = malloc(24);
  strcpy(name, "a block of 24");
  free(name);
  if (argc > 1)
    return 0;
  return name[5];
}

int main(int argc, char **argv) {
  int c = read_freed(argc);
  if (argc == 1)
    fprintf(stderr, "read %d\n", c);
  return 0;
}
// CHECK: mdebug: ERROR: use after free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 USED AFTER FREE (read)
// CHECK-NEXT:   read at 0x{{[0-9a-f]+}}: 5 bytes inside the freed block
// PLAIN-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in read_freed{{[+ ].*}} ({{.*}}uaf_read.c.tmp.plain){{$}}
// PLAIN-NEXT:   freed by free at pc 0x{{[0-9a-f]+}} in read_freed{{[+ ].*}} ({{.*}}uaf_read.c.tmp.plain){{$}}
// SITES-NEXT:   allocated by malloc at {{.*}}uaf_read.c:21:16 (read_freed)
// SITES-NEXT:   freed by free at {{.*}}uaf_read.c:23:3 (read_freed)
// CHECK-NEXT:   read by the instruction at pc 0x{{[0-9a-f]+}} in read_freed{{[+ ].*}} ({{.*}}uaf_read.c.tmp{{(.plain)?}})
// CHECK-NEXT:   (SIGSEGV, no access to the page)
// CHECK-NEXT: Backtrace at time of failure:
// CHECK-NEXT:   #00 pc 0x{{[0-9a-f]+}} in read_freed{{[+ ].*}} ({{.*}})
// CHECK-NEXT:   #01 pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}})
// CHECK: mdebug: SUMMARY: 1 error (1 use after free), then SIGSEGV (segmentation fault); leaks at exit not checked
// CHECK-NEXT: killed by signal 11
// OFF: read {{[0-9-]+}}
// OFF-NEXT: exit status: 0
