// Proves: a block is checked from its very first access, now that the
// runtime puts a new block's bounds in the thread's cache of lookups as it
// allocates it: a block freed before anything read it is reported at the
// read (use after free), and a block that realloc shrank in place (every
// check off: no quarantine, so realloc does not move it) is checked
// against its new size, not the size cached when it was allocated. The
// clean twins make the same calls and stay inside the blocks.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=none %not %t shrink 2>&1 | %FileCheck %s --check-prefix=SHRINK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: env MDEBUG_OPTIONS=none %t shrink clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long sink;
__attribute__((noinline)) long get(const char *p, long i) { return p[i]; }

int main(int argc, char **argv) {
  int shrink = argc > 1 && strcmp(argv[1], "shrink") == 0;
  int clean = strcmp(argv[argc - 1], "clean") == 0;
  char *warm = malloc(8); /* the thread's cache exists once a lookup ran */
  sink = get(warm, 0);
  free(warm);
  if (!shrink) {
    char *p = malloc(40);
    if (clean)
      sink = get(p, 39);
    free(p);
    if (!clean)
      sink = get(p, 0);
  } else {
    char *q = malloc(100);
    char *r = realloc(q, 97);
    if (r != q)
      printf("realloc moved the block\n");
    sink = get(r, clean ? 96 : 98);
    free(r);
  }
  return 0;
}
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 40 USED AFTER FREE (read)
// CHECK-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 0 bytes inside the freed block
// CHECK-NEXT:   read at {{.*}}fresh_blocks.c:18:68 (get)
// CHECK-NEXT:   allocated by malloc at {{.*}}fresh_blocks.c:27:15 (main)
// CHECK-NEXT:   freed by free at {{.*}}fresh_blocks.c:30:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 use after free)

// SHRINK-NOT: realloc moved
// SHRINK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 97 READ PAST ITS END
// SHRINK-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 1 byte after the end of the block
// SHRINK: mdebug: SUMMARY: 1 error (1 heap buffer overflow)
// CLEAN-NOT: mdebug
// CLEAN-NOT: realloc moved
