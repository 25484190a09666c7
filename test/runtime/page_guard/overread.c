// Proves: with page_guard a read past the end of a block faults at the
// read and is reported as a heap buffer overflow of that block (its size,
// how far past its end, its allocation site, the reading instruction), in
// a program that was not rebuilt. Blocks are aligned to 16 bytes, so a
// 13-byte block ends 3 bytes before the inaccessible page: a read 3 bytes
// past it lands there; with page_guard_align=1 the block ends against the
// page and a read of the byte just past it faults. A write into the
// alignment slack is a rear guard corruption, reported when the block is
// freed. The run without the bug prints nothing.
// RUN: %clang -g -O0 %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS=page_guard %t 3 2>&1 | %FileCheck %s --check-prefixes=CHECK,PAST3
// RUN: %python %S/../../Inputs/exit_status.py env LD_PRELOAD=%mdebug_rt_so "MDEBUG_OPTIONS=page_guard page_guard_align=1" %t 0 2>&1 | %FileCheck %s --check-prefixes=CHECK,PAST0
// RUN: %python %S/../../Inputs/exit_status.py env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS=page_guard %t slack 2>&1 | %FileCheck %s --check-prefix=SLACK
// RUN: env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS=page_guard %t 2>&1 | count 0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static int read_at(const char *p, size_t i) {
  return p[i];
}

int main(int argc, char **argv) {
  char *s = malloc(13);
  memcpy(s, "hello, world", 13);
  if (argc > 1 && strcmp(argv[1], "slack") == 0)
    s[14] = 'x'; /* in the slack: no fault */
  else if (argc > 1)
    fprintf(stderr, "read %d\n", read_at(s, 13 + (size_t)atoi(argv[1])));
  free(s);
  return 0;
}
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 13 READ PAST ITS END
// PAST3-NEXT:   read at 0x{{[0-9a-f]+}}: 3 bytes after the end of the block
// PAST0-NEXT:   read at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// CHECK-NEXT:   allocated by malloc at pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}}overread.c.tmp){{$}}
// CHECK-NEXT:   read by the instruction at pc 0x{{[0-9a-f]+}} in read_at{{[+ ].*}} ({{.*}}overread.c.tmp)
// CHECK: mdebug: SUMMARY: 1 error (1 heap buffer overflow), then SIGSEGV (segmentation fault); leaks at exit not checked
// CHECK-NEXT: killed by signal 11
// SLACK: mdebug: ERROR: rear guard corrupted in {{.*}}
// SLACK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 13 HAS A CORRUPTED REAR GUARD
// SLACK-NEXT:   allocation[14] = 0x78 (expected 0xbb)
// SLACK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// SLACK-NEXT: exit status: 23
