// Proves: an access in mdebug's heap that belongs to no block, its address
// not computed from any block's pointer (here an integer turned into a
// pointer, 1 GiB into the region of a block's size class, where no slot
// was ever handed out), is reported at the access as an invalid access,
// naming the nearest block; abort_on_error stops the program there, before
// the access. Let through, the access faults (that part of the region is
// inaccessible) and the fault's report says the same in the same words.
// The clean twin reads the block itself.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=abort_on_error %not --crash %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,ABORT
// RUN: %not --crash %t 2>&1 | %FileCheck %s --check-prefixes=CHECK,FAULT
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdint.h>
#include <stdlib.h>

__attribute__((noinline)) int peek(uintptr_t a) { return *(volatile char *)a; }

int main(int argc, char **argv) {
  char *p = calloc(1, 3000);
  uintptr_t a = (uintptr_t)p + (argc > 1 ? 0 : (uintptr_t)1 << 30);
  int r = peek(a);
  free(p);
  return r;
}
// CHECK: mdebug: ERROR: invalid access in {{.*}}
// CHECK-NEXT: +++ INVALID READ OF SIZE 1 AT 0x[[A:[0-9a-f]+]]
// CHECK-NEXT:   0x[[A]] is 1073738824 bytes after the end of a block of size 3000 at 0x[[P:[0-9a-f]+]], the nearest block in mdebug's heap
// CHECK-NEXT:   read at {{.*}}invalid_access.c:16:58 (peek)
// CHECK-NEXT:   allocated by calloc at {{.*}}invalid_access.c:19:13 (main)
// ABORT: mdebug: abort_on_error: aborting
// ABORT-NOT: SIGSEGV
// FAULT: mdebug: ERROR: invalid access in {{.*}}
// FAULT-NEXT: +++ INVALID READ AT 0x[[A]] (SIGSEGV, no access to the page)
// FAULT-NEXT:   0x[[A]] is 1073738824 bytes after the end of a block of size 3000 at 0x[[P]], the nearest block in mdebug's heap
// FAULT: mdebug: SUMMARY: 2 errors (2 invalid access), then SIGSEGV
// CLEAN-NOT: mdebug
