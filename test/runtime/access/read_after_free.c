// Proves: with -fmdebug-check-access a read of a freed block (in the
// free_track quarantine) is reported at the read, as a use after free
// (read), with its size, address, offset, source location, and the sites
// that allocated and freed the block; the program goes on (the read returns
// what the block holds). The clean twin reads before the free.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

struct point {
  long x, y;
};

__attribute__((noinline)) long use(struct point *p) { return p->y; }

int main(int argc, char **argv) {
  struct point *p = malloc(sizeof *p);
  memset(p, 0, sizeof *p);
  long v = argc > 1 ? use(p) : 0;
  free(p);
  if (argc == 1)
    v = use(p);
  return (int)v;
}
// CHECK: mdebug: ERROR: use after free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x[[P:[0-9a-f]+]] SIZE 16 USED AFTER FREE (read)
// CHECK-NEXT:   read of size 8 at 0x{{[0-9a-f]+}}: 8 bytes inside the freed block
// CHECK-NEXT:   read at {{.*}}read_after_free.c:16:65 (use)
// CHECK-NEXT:   allocated by malloc at {{.*}}read_after_free.c:19:21 (main)
// CHECK-NEXT:   freed by free at {{.*}}read_after_free.c:22:3 (main)
// CHECK-NEXT: *** ***
// CHECK: mdebug: SUMMARY: 1 error (1 use after free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
