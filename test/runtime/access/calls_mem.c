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
// MEMCPY: mdebug: ERROR: heap buffer overflow in
// MEMCPY-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 WRITTEN PAST ITS END
// MEMCPY-NEXT:   write of size 17 at 0x{{[0-9a-f]+}}: its last 1 byte after the end of the block
// MEMCPY-NEXT:   written by memcpy at {{.*}}calls_mem.c:24:5 (main)
// MEMCPY-NEXT:   allocated by calloc at {{.*}}calls_mem.c:21:37 (main)
// MEMCPY: mdebug: ERROR: heap buffer overflow in
// MEMCPY-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 READ PAST ITS END
// MEMCPY-NEXT:   read of size 17 at 0x{{[0-9a-f]+}}: its last 1 byte after the end of the block
// MEMCPY-NEXT:   read by memcpy at {{.*}}calls_mem.c:24:5 (main)
// MEMCPY-NEXT:   allocated by calloc at {{.*}}calls_mem.c:21:15 (main)
// MEMMOVE: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 WRITTEN PAST ITS END
// MEMMOVE-NEXT:   write of size 16 at 0x{{[0-9a-f]+}}: its last 4 bytes after the end of the block
// MEMMOVE-NEXT:   written by memmove at {{.*}}calls_mem.c:26:5 (main)
// MEMSET: mdebug: ERROR: use after free in
// MEMSET-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 USED AFTER FREE (write)
// MEMSET-NEXT:   write of size 15 at 0x{{[0-9a-f]+}}: 0 bytes inside the freed block
// MEMSET-NEXT:   written by memset at {{.*}}calls_mem.c:29:5 (main)
// MEMSET-NEXT:   allocated by calloc at {{.*}}calls_mem.c:21:37 (main)
// MEMSET-NEXT:   freed by free at {{.*}}calls_mem.c:28:5 (main)
// MEMCMP: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 READ PAST ITS END
// MEMCMP-NEXT:   read of size 15 at 0x{{[0-9a-f]+}}: its last 7 bytes after the end of the block
// MEMCMP-NEXT:   read by memcmp at {{.*}}calls_mem.c:32:9 (main)
// CLEAN-NOT: mdebug
