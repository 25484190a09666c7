// Proves: mdebug_dump_heap() on a path it cannot create logs "Unable to
// create file: PATH: <strerror>" and returns -1 with errno set (ENOENT for
// a missing directory); a writable path returns 0.
// RUN: %mdebug_clang -g -I%mdebug_include %s -o %t
// RUN: rm -rf %t.missing
// RUN: env MDEBUG_OPTIONS=backtrace %t %t.missing/heap.txt 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=backtrace %t %t.heap.txt 2>&1 | %FileCheck %s --check-prefix=OK
#include <errno.h>
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  errno = 0;
  int rc = mdebug_dump_heap(argv[1]);
  fprintf(stderr, "returned %d, errno %s\n", rc, rc ? strerror(errno) : "-");
  return 0;
}
// CHECK: mdebug: Unable to create file: {{.*}}dump_heap_unwritable.c.tmp.missing/heap.txt: No such file or directory
// CHECK-NEXT: returned -1, errno No such file or directory
// OK: mdebug: Dumping to file: {{.*}}dump_heap_unwritable.c.tmp.heap.txt
// OK-NEXT: returned 0, errno -
