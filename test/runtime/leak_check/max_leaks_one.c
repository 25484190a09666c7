// Proves: max_leaks=1 shows only the largest leak group (its header, site
// and blocks) and then "... 2 more leak groups not shown (max_leaks=1)",
// while the counts on the first line and in the summary still cover all
// three sites. The clean run frees everything.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not env MDEBUG_OPTIONS=max_leaks=1 %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=max_leaks=1 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>

static void *small_record(void) { return malloc(10); }
static void *large_record(void) { return malloc(300); }
static void *medium_record(void) { return calloc(5, 20); }

int main(int argc, char **argv) {
  void *blocks[4] = {small_record(), large_record(), large_record(),
                     medium_record()};
  if (argc > 1)
    for (int i = 0; i < 4; i++)
      free(blocks[i]);
  return 0;
}
// CHECK: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 710 bytes leaked in 4 blocks (4 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// CHECK-NEXT: Direct leak of 600 bytes in 2 blocks:
// CHECK-NEXT:   allocated by malloc at {{.*}}max_leaks_one.c:11:42 (large_record)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 300 at 0x{{[0-9a-f]+}} (leak 1 of 4)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 300 at 0x{{[0-9a-f]+}} (leak 2 of 4)
// CHECK-NEXT: ... 2 more leak groups not shown (max_leaks=1)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 710 bytes leaked in 4 blocks
// CLEAN-NOT: mdebug
