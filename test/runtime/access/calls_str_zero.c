// Proves: a bounded str* call given a count of 0 reads nothing, so a block
// of size 0 (calloc(1, 0), as a program sizes a buffer for an empty result)
// passed to strncmp, strnlen, strncpy or strncat with 0 is no report; the
// same calls with a count of 1 read a byte past that block and are
// reported at the call, with the block's allocation site.
// RUN: %mdebug_clang -fmdebug-check-calls -O1 -g %s -o %t
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %not %t strncmp 2>&1 | %FileCheck %s --check-prefix=STRNCMP
// RUN: %not %t strnlen 2>&1 | %FileCheck %s --check-prefix=STRNLEN
// RUN: %not %t strncpy 2>&1 | %FileCheck %s --check-prefix=STRNCPY
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  size_t n = !strcmp(mode, "clean") ? 0 : 1;
  char *empty = calloc(1, 0);
  char *dst = malloc(8);
  strcpy(dst, "abc");
  int r = 0;
  if (n == 0 || !strcmp(mode, "strncmp"))
    r += strncmp("x", empty, n);
  if (n == 0 || !strcmp(mode, "strnlen"))
    r += (int)strnlen(empty, n);
  if (n == 0 || !strcmp(mode, "strncpy"))
    strncpy(dst, empty, n);
  if (n == 0)
    strncat(dst, empty, n);
  free(dst);
  free(empty);
  return r & 1;
}
// CLEAN-NOT: mdebug
// STRNCMP: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 0 READ PAST ITS END
// STRNCMP-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// STRNCMP-NEXT:   read by strncmp at {{.*}}calls_str_zero.c:22:10 (main)
// STRNCMP-NEXT:   allocated by calloc at {{.*}}calls_str_zero.c:17:17 (main)
// STRNLEN: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 0 READ PAST ITS END
// STRNLEN-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// STRNLEN-NEXT:   read by strnlen at {{.*}}calls_str_zero.c:24:15 (main)
// STRNCPY: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 0 READ PAST ITS END
// STRNCPY-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// STRNCPY-NEXT:   read by strncpy at {{.*}}calls_str_zero.c:26:5 (main)
