// Proves: with page_guard_align=1 a block ends right against its page,
// whatever its size (a 13-byte block may start at an odd address), and such
// a block goes through the free_track quarantine and out of it like any
// other: freed twice after it left, it is reported as a double free of a
// block that had left the quarantine.
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: env "MDEBUG_OPTIONS=page_guard page_guard_align=1 free_track=1" %not %t 2>&1 | %FileCheck %s
// RUN: env "MDEBUG_OPTIONS=page_guard page_guard_align=1 free_track=1" %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(13);
  printf("ends at a page: %d\n", ((uintptr_t)p + 13) % 4096 == 0);
  free(p);
  free(malloc(13)); /* pushes p out of the one-block quarantine */
  free(malloc(13));
  fflush(stdout);
  if (argc == 1)
    free(p);
  return 0;
}
// CHECK: ends at a page: 1
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 13 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}align_one.c:14:13 (main)
// CHECK-NEXT:   freed by free at {{.*}}align_one.c:16:3 (main)
// CHECK-NEXT:   freed again by free at {{.*}}align_one.c:21:5 (main)
// CHECK-NEXT:   (the block had left the free_track quarantine and was not reused yet)
// CLEAN: ends at a page: 1
// CLEAN-NOT: mdebug
