// Proves: a site that leaks many blocks lists its first 8 and then counts
// the rest, while the header and summary still count all of them.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

struct node {
  struct node *next;
  char name[8];
};

int main(int argc, char **argv) {
  /* Eleven independent blocks, each dropped: all direct leaks. */
  for (int i = 0; i < 11; i++) {
    struct node *n = malloc(sizeof *n);
    n->next = NULL;
    if (argc > 1)
      free(n);
  }
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 176 bytes leaked in 11 blocks
// CHECK-NEXT: Direct leak of 176 bytes in 11 blocks:
// CHECK-NEXT:   allocated by malloc at {{.*}}many_blocks.c:16:22 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 16 at 0x{{[0-9a-f]+}} (leak 1 of 11)
// CHECK-COUNT-6: +++ [[PROG]] leaked block of size 16 at 0x{{[0-9a-f]+}} (leak {{[2-7]}} of 11)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 16 at 0x{{[0-9a-f]+}} (leak 8 of 11)
// CHECK-NEXT:   ... 3 more blocks from this site
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 176 bytes leaked in 11 blocks
// CLEAN-NOT: mdebug
