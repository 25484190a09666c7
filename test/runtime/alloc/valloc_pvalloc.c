// Proves: valloc and pvalloc return page-aligned blocks; valloc keeps the
// requested size (usable size 100) while pvalloc rounds it up to a whole
// page (usable size 4096); the valloc block's rear guard follows its 100
// bytes.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  char *v = valloc(100);
  char *pv = pvalloc(100);
  fprintf(stderr,
          "page %zu: valloc aligned %d usable %zu, "
          "pvalloc aligned %d usable %zu\n",
          page, (uintptr_t)v % page == 0, malloc_usable_size(v),
          (uintptr_t)pv % page == 0, malloc_usable_size(pv));
  pv[page - 1] = 1;
  if (argc == 1)
    v[100] = 1;
  free(v);
  free(pv);
  return 0;
}
// CHECK: page 4096: valloc aligned 1 usable 100, pvalloc aligned 1 usable 4096
// CHECK: mdebug: ERROR: rear guard corrupted in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}}000 SIZE 100 HAS A CORRUPTED REAR GUARD
// CHECK-NEXT:   allocation[100] = 0x01 (expected 0xbb)
// CHECK-NEXT:   allocated by valloc at {{.*}}valloc_pvalloc.c:16:13 (main)
// CHECK-NEXT:   detected by free at {{.*}}valloc_pvalloc.c:26:3 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 rear guard corrupted), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: page 4096: valloc aligned 1 usable 100, pvalloc aligned 1 usable 4096
// CLEAN-NOT: mdebug
