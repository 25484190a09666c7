// Proves: leaks are grouped by allocation site, the largest group first and
// the largest block first within a group, numbered "(leak k of M)" across
// the whole report, each group under an "N bytes in M blocks:" header with
// its site.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

static void *make_table(void) { return malloc(1000); }

int main(int argc, char **argv) {
  void *blocks[6];
  blocks[0] = malloc(100);
  blocks[1] = make_table();
  for (int i = 0; i < 3; i++)
    blocks[2 + i] = malloc(50 + 100 * i);
  blocks[5] = calloc(2, 4);
  if (argc > 1)
    for (int i = 0; i < 6; i++)
      free(blocks[i]);
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 1558 bytes leaked in 6 blocks
// CHECK-NEXT: 1000 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}several_sites.c:10:40 (make_table)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 1000 at 0x{{[0-9a-f]+}} (leak 1 of 6)
// CHECK-NEXT: 450 bytes in 3 blocks:
// CHECK-NEXT:   allocated by malloc at {{.*}}several_sites.c:17:21 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 250 at 0x{{[0-9a-f]+}} (leak 2 of 6)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 150 at 0x{{[0-9a-f]+}} (leak 3 of 6)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 50 at 0x{{[0-9a-f]+}} (leak 4 of 6)
// CHECK-NEXT: 100 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}several_sites.c:14:15 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 100 at 0x{{[0-9a-f]+}} (leak 5 of 6)
// CHECK-NEXT: 8 bytes in 1 block:
// CHECK-NEXT:   allocated by calloc at {{.*}}several_sites.c:18:15 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 8 at 0x{{[0-9a-f]+}} (leak 6 of 6)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 1558 bytes leaked in 6 blocks
// CLEAN-NOT: mdebug
