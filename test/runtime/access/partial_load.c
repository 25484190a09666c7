// Proves: an aligned word load that starts inside a block and ends past it
// (a string hashed a word at a time, the tail masked off, as lookup3's
// hashlittle in json-c does) is not reported by default, as Valgrind's
// partial-loads-ok; report_partial_loads reports it as a read past the end.
// A word load that starts past the end, an unaligned one and a partial
// store are reported either way.
// RUN: %mdebug_clang -fmdebug-check-access -O0 -g %s -o %t
// RUN: %t hash 2>&1 | %FileCheck %s --check-prefix=DEFAULT --allow-empty
// RUN: env MDEBUG_OPTIONS=report_partial_loads %not %t hash 2>&1 | %FileCheck %s --check-prefix=STRICT
// RUN: %not %t past 2>&1 | %FileCheck %s --check-prefix=PAST
// RUN: %not %t unaligned 2>&1 | %FileCheck %s --check-prefix=UNALIGNED
// RUN: %not %t store 2>&1 | %FileCheck %s --check-prefix=STORE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The last word of a 6-byte string: bytes 4 and 5 are the string's, 6 and
 * 7 lie past the block, masked off. */
__attribute__((noinline)) uint32_t tail_word(const uint32_t *k) {
  return k[1] & 0xffff;
}

int main(int argc, char **argv) {
  char *s = strdup("abcde"); /* 6 bytes, 16-byte aligned */
  uint32_t h = 0;
  if (argc > 1 && !strcmp(argv[1], "hash"))
    h = tail_word((const uint32_t *)s);
  else if (argc > 1 && !strcmp(argv[1], "past"))
    h = ((const uint32_t *)s)[2]; /* bytes 8-11: all past the end */
  else if (argc > 1 && !strcmp(argv[1], "unaligned"))
    memcpy(&h, s + 3, sizeof(h)), h += *(const volatile uint32_t *)(s + 3);
  else if (argc > 1 && !strcmp(argv[1], "store"))
    ((uint32_t *)s)[1] = 0x41414141; /* writes bytes 4-7 */
  free(s);
  return (int)(h & 1) * 0;
}
// DEFAULT-NOT: mdebug
// STRICT: mdebug: ERROR: heap buffer overflow in {{.*}}
// STRICT-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 6 READ PAST ITS END
// STRICT-NEXT:   read of size 4 at 0x{{[0-9a-f]+}}: its last 2 bytes after the end of the block
// STRICT-NEXT:   read at {{.*}}partial_load.c:20:10 (tail_word)
// PAST: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 6 READ PAST ITS END
// PAST-NEXT:   read of size 4 at 0x{{[0-9a-f]+}}: 2 bytes after the end of the block
// UNALIGNED: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 6 READ PAST ITS END
// UNALIGNED-NEXT:   read of size 4 at 0x{{[0-9a-f]+}}: its last 1 byte after the end of the block
// STORE: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 6 WRITTEN PAST ITS END
// STORE-NEXT:   write of size 4 at 0x{{[0-9a-f]+}}: its last 2 bytes after the end of the block
