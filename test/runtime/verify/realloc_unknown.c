// Proves: realloc of a pointer mdebug never handed out is reported as an
// unknown pointer (realloc) and returns NULL without touching the memory.
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
  char *p = argc > 1 ? malloc(16) : m;
  fprintf(stderr, "resizing %p\n", (void *)p);
  char *q = realloc(p, 64);
  fprintf(stderr, "realloc returned %s\n", q ? "a block" : "NULL");
  free(q);
  munmap(m, 4096);
  return 0;
}
// CHECK: resizing [[ADDR:0x[0-9a-f]+]]
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: unknown pointer in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION [[ADDR]] UNKNOWN POINTER (realloc)
// CHECK-NEXT:   [[ADDR]] is not the start of any block mdebug allocated
// CHECK-NEXT:   detected by realloc at {{.*}}realloc_unknown.c:17:13 (main)
// CHECK: realloc returned NULL
// CHECK: mdebug: SUMMARY: 1 error (1 unknown pointer), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: realloc returned a block
// CLEAN-NOT: mdebug
