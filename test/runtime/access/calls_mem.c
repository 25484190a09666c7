// Proves: -fmdebug-check-calls checks memcpy, memmove, memset and memcmp at
// the call, against the blocks of both ranges (as AddressSanitizer's
// interceptors do): a destination too small is a write past its end, a
// source too short a read past its end, a freed destination a use after
// free (write); each report names the function and the call's site. The
// sizes are not constants, so the calls stay calls (memcpy of a known small
// size becomes loads and stores, checked by -fmdebug-check-access). The
// clean twin copies what fits.
// RUN: %mdebug_clang -fmdebug-check-calls -O1 -g %s -o %t
// RUN: %not %t memcpy 2>&1 | %FileCheck %s --check-prefix=MEMCPY
// RUN: %not %t memmove 2>&1 | %FileCheck %s --check-prefix=MEMMOVE
// RUN: %not %t memset 2>&1 | %FileCheck %s --check-prefix=MEMSET
// RUN: %not %t memcmp 2>&1 | %FileCheck %s --check-prefix=MEMCMP
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  size_t n = strlen(mode) + 9; /* "clean" + 9 = 14 fits, the others do not */
  char *src = calloc(1, 16), *dst = calloc(1, 16);
  int r = 0;
  if (!strcmp(mode, "memcpy"))
    memcpy(dst, src, n + 2);
  else if (!strcmp(mode, "memmove"))
    memmove(dst + 4, dst, n); /* overlapping: stays memmove */
  else if (!strcmp(mode, "memset")) {
    free(dst);
    memset(dst, 0, n);
    dst = NULL;
  } else if (!strcmp(mode, "memcmp"))
    r = memcmp(src, dst + 8, n);
  else
    memcpy(dst, src, n);
  free(src);
  free(dst);
  return r;
}
// MEMCPY: mdebug: ERROR: heap-buffer-overflow in
// MEMCPY-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 WRITE OF SIZE 17 AT 0x{{[0-9a-f]+}} (memcpy): its last 1 byte past its end
// MEMCPY-NEXT:   written by memcpy at {{.*}}calls_mem.c:24:5 (main)
// MEMCPY-NEXT:   allocated by calloc at {{.*}}calls_mem.c:21:37 (main)
// MEMCPY: mdebug: ERROR: heap-buffer-overflow in
// MEMCPY-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 READ OF SIZE 17 AT 0x{{[0-9a-f]+}} (memcpy): its last 1 byte past its end
// MEMCPY-NEXT:   read by memcpy at {{.*}}calls_mem.c:24:5 (main)
// MEMCPY-NEXT:   allocated by calloc at {{.*}}calls_mem.c:21:15 (main)
// MEMMOVE: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 WRITE OF SIZE 16 AT 0x{{[0-9a-f]+}} (memmove): its last 4 bytes past its end
// MEMMOVE-NEXT:   written by memmove at {{.*}}calls_mem.c:26:5 (main)
// MEMSET: mdebug: ERROR: use after free (write) in
// MEMSET-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 WRITE OF SIZE 15 AT 0x{{[0-9a-f]+}} (memset): 0 bytes inside it
// MEMSET-NEXT:   written by memset at {{.*}}calls_mem.c:29:5 (main)
// MEMSET-NEXT:   allocated by calloc at {{.*}}calls_mem.c:21:37 (main)
// MEMSET-NEXT:   freed by free at {{.*}}calls_mem.c:28:5 (main)
// MEMCMP: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 READ OF SIZE 15 AT 0x{{[0-9a-f]+}} (memcmp): its last 7 bytes past its end
// MEMCMP-NEXT:   read by memcmp at {{.*}}calls_mem.c:32:9 (main)
// CLEAN-NOT: mdebug
