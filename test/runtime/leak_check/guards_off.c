// Proves: leak_check finds a lost block with the guards off too: alone
// (`none leak_check`, where it must turn block tracking on by itself) and
// with free_track. Without a rear guard the block's end meets the next
// glibc chunk, and glibc's pointer to its arena's top chunk must not make
// the last block allocated look reachable.
// RUN: %mdebug_clang -O0 -g %s -o %t
// RUN: env MDEBUG_OPTIONS="none leak_check" %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="none leak_check free_track" %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="none leak_check expand_alloc=8" %not %t 2>&1 | %FileCheck %s
#include <stdlib.h>

void *g;

int main(void) {
  g = malloc(5);
  g = 0;
  return 0;
}
// CHECK: mdebug: 5 bytes leaked in 1 block (1 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 5 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}guards_off.c:15:7 (main)
