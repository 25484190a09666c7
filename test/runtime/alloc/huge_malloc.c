// Proves: malloc of a size over the maximum allocation size ((size_t)1 << 50,
// SIZE_MAX) is reported at its site as too big, naming the size and the
// limit (1 TiB by default), then returns NULL with errno ENOMEM and the run
// goes on; the summary counts both and the run ends with mdebug's status.
// The refused requests leave nothing behind: only the real leak is counted.
// With allocator_may_return_null the same requests are quiet.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  static const size_t sizes[] = {(size_t)1 << 50, SIZE_MAX};
  for (int i = 0; i < 2; i++) {
    errno = 0;
    void *p = malloc(sizes[i]);
    fprintf(stderr, "malloc(%#zx): %s, errno %s\n", sizes[i],
            p ? "a block" : "NULL", errno == ENOMEM ? "ENOMEM" : "?");
    free(p);
  }
  char *small = malloc(8);
  if (argc > 1)
    free(small);
  return 0;
}
// CHECK:      *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: allocation size too big in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 1125899906842624 BYTES TOO BIG (malloc)
// CHECK-NEXT:   requested size 0x4000000000000 exceeds the maximum allocation size 0x10000000000 (1099511627776 bytes, max_allocation_size)
// CHECK-NEXT:   requested by malloc at {{.*}}huge_malloc.c:19:15 (main)
// CHECK-NEXT:   malloc returns NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: malloc(0x4000000000000): NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: allocation size too big in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 18446744073709551615 BYTES TOO BIG (malloc)
// CHECK-NEXT:   requested size 0xffffffffffffffff exceeds the maximum allocation size 0x10000000000 (1099511627776 bytes, max_allocation_size)
// CHECK-NEXT:   requested by malloc at {{.*}}huge_malloc.c:19:15 (main)
// CHECK-NEXT:   malloc returns NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: malloc(0xffffffffffffffff): NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 8 bytes leaked in 1 block
// CHECK-NEXT: 8 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}huge_malloc.c:24:17 (main)
// CHECK: mdebug: SUMMARY: 2 errors (2 allocation size too big), 8 bytes leaked in 1 block
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: malloc(0x4000000000000): NULL, errno ENOMEM
// CLEAN-NEXT: malloc(0xffffffffffffffff): NULL, errno ENOMEM
// CLEAN-NOT: mdebug
