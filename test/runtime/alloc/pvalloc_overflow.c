// Proves: pvalloc of a size that overflows when rounded up to a whole page
// (SIZE_MAX - 100) is reported at its site as a pvalloc overflow
// (AddressSanitizer's pvalloc-overflow), naming the size and the page, then
// returns NULL with errno ENOMEM; the run ends with mdebug's status. With
// allocator_may_return_null it is glibc's quiet NULL.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  errno = 0;
  void *p = pvalloc(SIZE_MAX - 100);
  fprintf(stderr, "pvalloc: %s, errno %s\n", p ? "a block" : "NULL",
          errno == ENOMEM ? "ENOMEM" : "?");
  free(p);
  return 0;
}
// CHECK:      mdebug: ERROR: pvalloc overflow in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION REQUEST OF 18446744073709551515 BYTES OVERFLOWS (pvalloc)
// CHECK-NEXT:   size 0xffffffffffffff9b rounded up to the page size (0x1000) cannot be represented in size_t
// CHECK-NEXT:   requested by pvalloc at {{.*}}pvalloc_overflow.c:17:13 (main)
// CHECK-NEXT:   pvalloc returns NULL, errno ENOMEM
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: pvalloc: NULL, errno ENOMEM
// CHECK-NEXT: mdebug: SUMMARY: 1 error (1 pvalloc overflow), 0 bytes leaked in 0 blocks
// CHECK-NEXT: exit status: 23
// CLEAN-NOT: mdebug
// CLEAN: pvalloc: NULL, errno ENOMEM
// CLEAN-NOT: mdebug
