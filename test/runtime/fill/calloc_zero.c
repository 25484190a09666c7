// Proves: calloc memory is zero even with fill_on_alloc (only malloc'ed
// memory gets 0xeb), so code relying on calloc's zeroing keeps working.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=fill_on_alloc %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=fill_on_alloc %t calloc 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  /* The bug: the table should have come from calloc. */
  unsigned *table = argc > 1 ? calloc(64, sizeof *table)
                             : malloc(64 * sizeof *table);
  size_t zero = 0;
  for (size_t i = 0; i < 64; i++)
    zero += table[i] == 0;
  printf("zero entries: %zu of 64, table[0] = %#x\n", zero, table[0]);
  free(table);
  return zero == 64 ? 0 : 1;
}
// CHECK-NOT: mdebug
// CHECK: zero entries: 0 of 64, table[0] = 0xebebebeb
// CHECK-NOT: mdebug
// CLEAN-NOT: mdebug
// CLEAN: zero entries: 64 of 64, table[0] = 0
// CLEAN-NOT: mdebug
