// Proves: free of memory that came from mmap (another allocator) is
// reported as an unknown pointer and the mapping is left alone.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

int main(int argc, char **argv) {
  char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return 2;
  m[0] = 'm';
  fprintf(stderr, "mapped %p\n", (void *)m);
  if (argc == 1)
    free(m);
  fprintf(stderr, "mapping still readable: %c\n", m[0]);
  munmap(m, 4096);
  return 0;
}
// CHECK: mapped [[ADDR:0x[0-9a-f]+]]
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: unknown pointer in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION [[ADDR]] UNKNOWN POINTER (free)
// CHECK-NEXT:   [[ADDR]] is not the start of any block mdebug allocated
// CHECK-NEXT:   detected by free at {{.*}}free_mmap.c:18:5 (main)
// CHECK: mapping still readable: m
// CHECK: mdebug: SUMMARY: 1 error (1 unknown pointer), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
