// Proves: with -fmdebug-check-access, large blocks (the secondary's: 1 MiB
// from malloc, 200000 bytes aligned to 4096) are checked as small ones are:
// a read or write past the end (in the bytes between the block and its
// inaccessible page, which nothing else sees, or 100 bytes into that page,
// which would fault with no line) or before the start, a memcpy
// that runs past the end, and a read after free (free_track: the pages are
// inaccessible, the read would fault with no line) are each reported at
// their line, naming the block, how far, and where it was allocated (and
// freed). A page-guarded small block (page_guard=1) is checked the same
// way. The clean twin touches every block inside its bytes: silent.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t over 2>&1 | %FileCheck %s --check-prefix=OVER
// RUN: env MDEBUG_OPTIONS=abort_on_error %not --crash %t over_page 2>&1 | %FileCheck %s --check-prefix=OVERPAGE
// RUN: %not %t under 2>&1 | %FileCheck %s --check-prefix=UNDER
// RUN: %not %t write 2>&1 | %FileCheck %s --check-prefix=WRITE
// RUN: %not %t write_under 2>&1 | %FileCheck %s --check-prefix=WUNDER
// RUN: %not %t aligned_over 2>&1 | %FileCheck %s --check-prefix=AOVER
// RUN: env MDEBUG_OPTIONS=abort_on_error %not --crash %t aligned_under 2>&1 | %FileCheck %s --check-prefix=AUNDER
// RUN: %not %t memcpy 2>&1 | %FileCheck %s --check-prefix=MEMCPY
// RUN: env MDEBUG_OPTIONS=abort_on_error %not --crash %t after_free 2>&1 | %FileCheck %s --check-prefix=UAF
// RUN: env MDEBUG_OPTIONS=page_guard=1 %not %t guarded 2>&1 | %FileCheck %s --check-prefix=GUARDED
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: env MDEBUG_OPTIONS=page_guard=1 %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

#define MIB (1 << 20)

__attribute__((noinline)) int peek(const char *p, long i) { return p[i]; }
__attribute__((noinline)) void poke(char *p, long i) { p[i] = 1; }

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "clean";
  int clean = !strcmp(m, "clean"), r = 0;
  /* Its block ends 8 bytes before its inaccessible page. */
  char *big = malloc(MIB - 8);
  /* Its block starts 4000 bytes after its first accessible byte. */
  char *late = malloc(MIB - 4000);
  /* At the start of its pages, 704 bytes before its inaccessible page. */
  char *aligned = aligned_alloc(4096, 200000);
  const char *src = argv[0]; /* a path: more than 16 bytes */
  if (clean) {
    r += peek(big, MIB - 9) + peek(late, 0) + peek(aligned, 199999);
    poke(big, 0);
    memcpy(big + MIB - 24, src, 16);
    char *small = malloc(100);
    r += peek(small, 99);
    free(small);
  } else if (!strcmp(m, "over")) {
    r = peek(big, MIB - 8 + 4);
  } else if (!strcmp(m, "over_page")) {
    char *exact = malloc(MIB); /* ends at its inaccessible page */
    r = peek(exact, MIB + 100);
  } else if (!strcmp(m, "under")) {
    r = peek(late, -100);
  } else if (!strcmp(m, "write")) {
    poke(big, MIB - 8);
  } else if (!strcmp(m, "write_under")) {
    poke(late, -1);
  } else if (!strcmp(m, "aligned_over")) {
    r = peek(aligned, 200000 + 100);
  } else if (!strcmp(m, "aligned_under")) {
    r = peek(aligned, -16);
  } else if (!strcmp(m, "memcpy")) {
    memcpy(big + MIB - 16, src, 16);
  } else if (!strcmp(m, "after_free")) {
    free(big);
    r = peek(big, 10);
  } else if (!strcmp(m, "guarded")) {
    char *small = malloc(100);
    r = peek(small, 100 + 2);
    free(small);
  }
  free(aligned);
  free(late);
  if (strcmp(m, "after_free"))
    free(big);
  return r;
}
// OVER: mdebug: ERROR: heap buffer overflow in {{.*}}
// OVER-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1048568 READ PAST ITS END
// OVER-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 4 bytes after the end of the block
// OVER-NEXT:   read at {{.*}}large_block.c:29:68 (peek)
// OVER-NEXT:   allocated by malloc at {{.*}}large_block.c:36:15 (main)
// OVER: mdebug: SUMMARY: 1 error (1 heap buffer overflow)

// OVERPAGE: mdebug: ERROR: heap buffer overflow in {{.*}}
// OVERPAGE-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}}000 SIZE 1048576 READ PAST ITS END
// OVERPAGE-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 100 bytes after the end of the block
// OVERPAGE-NEXT:   read at {{.*}}large_block.c:29:68 (peek)
// OVERPAGE-NEXT:   allocated by malloc at {{.*}}large_block.c:52:19 (main)
// OVERPAGE: mdebug: abort_on_error: aborting

// UNDER: mdebug: ERROR: heap buffer overflow in {{.*}}
// UNDER-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1044576 READ BEFORE ITS START
// UNDER-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 100 bytes before the block
// UNDER-NEXT:   read at {{.*}}large_block.c:29:68 (peek)
// UNDER-NEXT:   allocated by malloc at {{.*}}large_block.c:38:16 (main)
// UNDER: mdebug: SUMMARY: 1 error (1 heap buffer overflow)

// WRITE: mdebug: ERROR: heap buffer overflow in {{.*}}
// WRITE-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1048568 WRITTEN PAST ITS END
// WRITE-NEXT:   write of size 1 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// WRITE-NEXT:   written at {{.*}}large_block.c:30:61 (poke)
// WRITE-NEXT:   allocated by malloc at {{.*}}large_block.c:36:15 (main)
// WRITE: mdebug: ERROR: rear guard corrupted in {{.*}}

// WUNDER: mdebug: ERROR: heap buffer overflow in {{.*}}
// WUNDER-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1044576 WRITTEN BEFORE ITS START
// WUNDER-NEXT:   write of size 1 at 0x{{[0-9a-f]+}}: 1 byte before the block
// WUNDER-NEXT:   written at {{.*}}large_block.c:30:61 (poke)
// WUNDER-NEXT:   allocated by malloc at {{.*}}large_block.c:38:16 (main)
// WUNDER: mdebug: SUMMARY: 1 error (1 heap buffer overflow)

// AOVER: mdebug: ERROR: heap buffer overflow in {{.*}}
// AOVER-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}}000 SIZE 200000 READ PAST ITS END
// AOVER-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 100 bytes after the end of the block
// AOVER-NEXT:   read at {{.*}}large_block.c:29:68 (peek)
// AOVER-NEXT:   allocated by aligned_alloc at {{.*}}large_block.c:40:19 (main)
// AOVER: mdebug: SUMMARY: 1 error (1 heap buffer overflow)

// AUNDER: mdebug: ERROR: heap buffer overflow in {{.*}}
// AUNDER-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}}000 SIZE 200000 READ BEFORE ITS START
// AUNDER-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 16 bytes before the block
// AUNDER-NEXT:   read at {{.*}}large_block.c:29:68 (peek)
// AUNDER-NEXT:   allocated by aligned_alloc at {{.*}}large_block.c:40:19 (main)
// AUNDER: mdebug: abort_on_error: aborting

// MEMCPY: mdebug: ERROR: heap buffer overflow in {{.*}}
// MEMCPY-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1048568 WRITTEN PAST ITS END
// MEMCPY-NEXT:   write of size 16 at 0x{{[0-9a-f]+}}: its last 8 bytes after the end of the block
// MEMCPY-NEXT:   written by memcpy at {{.*}}large_block.c:65:5 (main)
// MEMCPY-NEXT:   allocated by malloc at {{.*}}large_block.c:36:15 (main)

// UAF: mdebug: ERROR: use after free in {{.*}}
// UAF-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1048568 USED AFTER FREE (read)
// UAF-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 10 bytes inside the freed block
// UAF-NEXT:   read at {{.*}}large_block.c:29:68 (peek)
// UAF-NEXT:   allocated by malloc at {{.*}}large_block.c:36:15 (main)
// UAF-NEXT:   freed by free at {{.*}}large_block.c:67:5 (main)
// UAF: mdebug: abort_on_error: aborting

// GUARDED: mdebug: ERROR: heap buffer overflow in {{.*}}
// GUARDED-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 100 READ PAST ITS END
// GUARDED-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 2 bytes after the end of the block
// GUARDED-NEXT:   read at {{.*}}large_block.c:29:68 (peek)
// GUARDED-NEXT:   allocated by malloc at {{.*}}large_block.c:70:19 (main)

// CLEAN-NOT: mdebug
