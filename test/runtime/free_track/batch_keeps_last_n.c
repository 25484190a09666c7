// Proves: a quarantine of 64 blocks or more, which gives blocks back 16 at
// a time, still holds the last free_track freed blocks: once free_track
// frees filled it, a stale write to a block followed by free_track - 1 more
// frees is found at exit (the block was still held, and so was the one
// freed after it) whatever the ring's phase (two fill counts 8 apart: a
// ring that gave back 16 blocks as soon as it held free_track drops the
// block in one of them), while after free_track + 15 more frees it is found
// when its batch left, before the program ends, together with the block
// freed after it. With free_track=64 and with the default set (256).
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=free_track=64 %not %t 64 63 2>&1 | %FileCheck %s --check-prefix=HELD
// RUN: env MDEBUG_OPTIONS=free_track=64 %not %t 72 63 2>&1 | %FileCheck %s --check-prefix=HELD
// RUN: env MDEBUG_OPTIONS=free_track=64 %not %t 64 79 2>&1 | %FileCheck %s --check-prefix=LEFT
// RUN: %not %t 256 255 2>&1 | %FileCheck %s --check-prefix=HELD
// RUN: %not %t 264 255 2>&1 | %FileCheck %s --check-prefix=HELD
// RUN: %not %t 256 271 2>&1 | %FileCheck %s --check-prefix=LEFT
// RUN: env MDEBUG_OPTIONS=free_track=64 %t 64 79 clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int before = atoi(argv[1]), more = atoi(argv[2]);
  for (int i = 0; i < before; i++)
    free(malloc(24));
  char *p = malloc(24), *q = malloc(40);
  free(p);
  free(q); /* the first of `more` */
  if (argc == 3) {
    p[5] = 'p';
    q[33] = 'q';
  }
  for (int i = 1; i < more; i++)
    free(malloc(24));
  fprintf(stderr, "frees done\n");
  return 0;
}
// HELD: frees done
// HELD: mdebug: ERROR: use after free in
// HELD-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// HELD-NEXT:   allocation[5] = 0x70 (expected 0xef)
// HELD-NEXT:   the block had size 24
// HELD: detected at exit, in the free_track quarantine
// HELD: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// HELD-NEXT:   allocation[33] = 0x71 (expected 0xef)
// HELD: detected at exit, in the free_track quarantine
// HELD: mdebug: SUMMARY: 2 errors (2 use after free)
// LEFT: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// LEFT-NEXT:   allocation[5] = 0x70 (expected 0xef)
// LEFT-NEXT:   the block had size 24
// LEFT: detected when the block left the free_track quarantine
// LEFT: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// LEFT-NEXT:   allocation[33] = 0x71 (expected 0xef)
// LEFT-NEXT:   the block had size 40
// LEFT: detected when the block left the free_track quarantine
// LEFT: frees done
// LEFT: mdebug: SUMMARY: 2 errors (2 use after free)
// CLEAN-NOT: mdebug
