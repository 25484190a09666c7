// Proves: a large block (a mapping of its own, against an inaccessible
// page) needs no option to catch an access past its end, nor a read after
// it was freed while free_track holds it: each faults and is reported as a
// heap buffer overflow or a use after free, naming the block and its
// sites. The run without the bugs prints nothing.
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t past 2>&1 | %FileCheck %s --check-prefix=PAST
// RUN: %python %S/../../Inputs/exit_status.py %t freed 2>&1 | %FileCheck %s --check-prefix=FREED
// RUN: %t 2>&1 | count 0
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  size_t n = (1 << 20) + 4096;
  char *big = malloc(n);
  memset(big, 1, n);
  if (argc > 1 && strcmp(argv[1], "past") == 0)
    return big[n + 100];
  free(big);
  if (argc > 1)
    return big[n / 2];
  return 0;
}
// PAST: mdebug: ERROR: heap buffer overflow in {{.*}}
// PAST-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1052672 READ PAST ITS END
// PAST-NEXT:   read at 0x{{[0-9a-f]+}}: 100 bytes after the end of the block
// PAST-NEXT:   allocated by malloc at {{.*}}large_block.c:15:15 (main)
// PAST: mdebug: SUMMARY: 1 error (1 heap buffer overflow), then SIGSEGV
// FREED: mdebug: ERROR: use after free in {{.*}}
// FREED-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1052672 USED AFTER FREE (read)
// FREED-NEXT:   read at 0x{{[0-9a-f]+}}: 526336 bytes inside the freed block
// FREED-NEXT:   allocated by malloc at {{.*}}large_block.c:15:15 (main)
// FREED-NEXT:   freed by free at {{.*}}large_block.c:19:3 (main)
// FREED: mdebug: SUMMARY: 1 error (1 use after free), then SIGSEGV
