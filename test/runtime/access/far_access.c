// Proves: an access through a pointer that left its block by more than the
// guard, into no block's slot (the slots around the block are still
// unused), is reported at the access as a heap buffer overflow naming the
// nearest block, how far before its start or after its end, and where it
// was allocated, as AddressSanitizer names it: Juliet's `data = buffer - 8`
// then strcpy, a read 1 KiB past a small block, a read 4000 bytes before
// it. (Farther than 64 KiB from any block, it stays an invalid access:
// invalid_access.c.) The clean twin copies into the block itself.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t minus8 2>&1 | %FileCheck %s --check-prefix=MINUS8
// RUN: %not %t past1k 2>&1 | %FileCheck %s --check-prefix=PAST1K
// RUN: %not %t before4k 2>&1 | %FileCheck %s --check-prefix=BEFORE4K
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

/* The pointer is the access's own: no block it was computed from is known
 * here, only where it lands. */
__attribute__((noinline)) int peek(const char *q) { return *q; }

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "clean";
  /* The only block of its size class: the slots around it are unused. */
  char *buffer = malloc(700);
  int r = 0;
  if (!strcmp(m, "clean")) {
    strcpy(buffer, argv[0]);
    r = peek(buffer + 699);
  } else if (!strcmp(m, "minus8")) {
    char *data = buffer - 8;
    strcpy(data, argv[0]);
  } else if (!strcmp(m, "past1k")) {
    r = peek(buffer + 700 + 1024);
  } else if (!strcmp(m, "before4k")) {
    r = peek(buffer - 4000);
  }
  free(buffer);
  return r;
}
// MINUS8: mdebug: ERROR: heap buffer overflow in {{.*}}
// MINUS8-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 700 WRITTEN BEFORE ITS START
// MINUS8-NEXT:   write of size {{[0-9]+}} at 0x{{[0-9a-f]+}}: its first 8 bytes before the block
// MINUS8-NEXT:   written by strcpy at {{.*}}far_access.c:31:5 (main)
// MINUS8-NEXT:   allocated by malloc at {{.*}}far_access.c:24:18 (main)
// MINUS8-NOT: invalid access
// MINUS8: mdebug: SUMMARY: {{.*}}heap buffer overflow

// PAST1K: mdebug: ERROR: heap buffer overflow in {{.*}}
// PAST1K-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 700 READ PAST ITS END
// PAST1K-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 1024 bytes after the end of the block
// PAST1K-NEXT:   read at {{.*}}far_access.c:19:60 (peek)
// PAST1K-NEXT:   allocated by malloc at {{.*}}far_access.c:24:18 (main)
// PAST1K: mdebug: SUMMARY: 1 error (1 heap buffer overflow)

// BEFORE4K: mdebug: ERROR: heap buffer overflow in {{.*}}
// BEFORE4K-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 700 READ BEFORE ITS START
// BEFORE4K-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 4000 bytes before the block
// BEFORE4K-NEXT:   read at {{.*}}far_access.c:19:60 (peek)
// BEFORE4K-NEXT:   allocated by malloc at {{.*}}far_access.c:24:18 (main)
// BEFORE4K: mdebug: SUMMARY: 1 error (1 heap buffer overflow)

// CLEAN-NOT: mdebug
