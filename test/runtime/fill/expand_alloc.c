// Proves: expand_alloc=16 adds 16 usable bytes to every block:
// malloc_usable_size is size + 16, writes into those bytes are not reported,
// and the rear guard starts right after them.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=expand_alloc=16 %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=expand_alloc=16 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  char *p = malloc(10);
  size_t usable = malloc_usable_size(p);
  fprintf(stderr, "usable size %zu\n", usable);
  memset(p, 'e', usable);
  if (argc == 1)
    p[usable] = 'x';
  free(p);
  return 0;
}
// CHECK: usable size 26
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 10 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[26] = 0x78 (expected 0xbb)
// CHECK-NEXT:   allocated by malloc at {{.*}}expand_alloc.c:13:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}expand_alloc.c:19:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN: usable size 26
// CLEAN-NOT: mdebug
