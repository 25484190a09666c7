// Proves: the default set fills and checks the first 64 bytes of a freed
// block (a stale write at offset 10 is caught, one at offset 100 is not),
// while an explicit free_track in MDEBUG_OPTIONS covers the whole block.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 10 2>&1 | %FileCheck %s --check-prefix=NEAR
// RUN: %t 100 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: env MDEBUG_OPTIONS=free_track %not %t 100 2>&1 | %FileCheck %s --check-prefix=FAR
#include <stdlib.h>

int main(int argc, char **argv) {
  int offset = atoi(argv[1]);
  char *p = malloc(200);
  free(p);
  p[offset] = 0x42;
  return 0;
}
// NEAR: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// NEAR-NEXT: allocation[10] = 0x42 (expected 0xef)
// NEAR: allocated by malloc at {{.*}}default_fill_limit.c:12:13 (main)
// NEAR: freed by free at {{.*}}default_fill_limit.c:13:3 (main)
// FAR: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// FAR-NEXT: allocation[100] = 0x42 (expected 0xef)
// CLEAN-NOT: mdebug
