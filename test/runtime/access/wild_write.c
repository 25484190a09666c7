// Proves: a write 1 MiB past a block, far beyond any guard, is reported at
// the write (before it lands) as a heap buffer overflow of the block its
// address was computed from, with the distance; where it lands inside
// another block, that block is named too. The blocks of the size class are
// allocated first, so the page it lands in is mapped and the program lives
// on to its summary. The clean twin writes inside the block.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

#define MIB (1 << 20)
#define COUNT (3 * MIB / 112)

__attribute__((noinline)) void poke(char *p, long i) { p[i] = 1; }

int main(int argc, char **argv) {
  static char *many[COUNT];
  for (int i = 0; i < COUNT; i++)
    many[i] = malloc(100);
  char *p = many[COUNT / 4];
  poke(p, argc > 1 ? 99 : MIB);
  for (int i = 0; i < COUNT; i++)
    free(many[i]);
  return 0;
}
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 100 WRITTEN PAST ITS END
// CHECK-NEXT:   write of size 1 at 0x{{[0-9a-f]+}}: 1048476 bytes after the end of the block
// CHECK-NEXT:   written at {{.*}}wild_write.c:15:61 (poke)
// CHECK-NEXT:   allocated by malloc at {{.*}}wild_write.c:20:15 (main)
// CHECK-NEXT:   0x{{[0-9a-f]+}} lies inside another block, of size 100 at 0x{{[0-9a-f]+}}:
// CHECK-NEXT:     allocated by malloc at {{.*}}wild_write.c:20:15 (main)
// CHECK: mdebug: SUMMARY: {{[0-9]+}} error{{s?}} ({{.*}}1 heap buffer overflow)
// CLEAN-NOT: mdebug
