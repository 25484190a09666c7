// Proves: with the defaults (no front guard, an 8-byte rear guard: the
// check on free is one word), a write at any of the 8 bytes past a block is
// reported when the block is freed, for blocks of 1 to 40 bytes: 320
// writes, 320 reports.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  for (int s = 1; s <= 40; s++)
    for (int g = 0; g < 8; g++) {
      char *p = malloc(s);
      if (argc == 1)
        ((volatile char *)p)[s + g] = 'x';
      free(p);
    }
  fprintf(stderr, "done\n");
  return 0;
}
// CHECK: done
// CHECK: mdebug: SUMMARY: 320 errors (320 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
