// Proves: the lookup's memo of recent large blocks (a program reads a
// large block at pointers that each miss the per-pointer cache: hash
// buckets, Lua's string table) answers only while the block is the same
// live block. A read past the end at a pointer the cache never saw is
// reported; after the block is freed, a read at another such pointer is a
// use after free; a smaller block allocated after it is checked for its
// own size; a large block dropped after such reads is still reported as
// leaked (the memo, in thread-local storage that the leak scan reads,
// does not keep it reachable). A read past a large block's end may land
// on its inaccessible page: those runs stop at the report (abort_on_error).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: env MDEBUG_OPTIONS=abort_on_error %not --crash %t over 2>&1 | %FileCheck %s --check-prefix=OVER
// RUN: %not %t after_free 2>&1 | %FileCheck %s --check-prefix=UAF
// RUN: env MDEBUG_OPTIONS=abort_on_error %not --crash %t smaller 2>&1 | %FileCheck %s --check-prefix=SMALLER
// RUN: env MDEBUG_OPTIONS=none:abort_on_error %not --crash %t smaller 2>&1 | %FileCheck %s --check-prefix=SMALLER
// RUN: env MDEBUG_OPTIONS=leak_check %not %t leak 2>&1 | %FileCheck %s --check-prefix=LEAK
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)

__attribute__((noinline)) int peek(const char *p, long i) { return p[i]; }

/* Reads at 64 pointers 4 KiB apart: each a miss of the cache, answered by
 * the memo after the first. */
__attribute__((noinline)) static int sweep(const char *p, long size) {
  int r = 0;
  for (long i = 0; i < 64; i++)
    r += peek(p, (i * 4096 + 8) % size);
  return r;
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "clean";
  char *big = malloc(BIG);
  memset(big, 0, BIG);
  int r = sweep(big, BIG);
  if (!strcmp(m, "over")) {
    r += peek(big, BIG + 3000);
  } else if (!strcmp(m, "after_free")) {
    free(big);
    r += peek(big, 40000);
    return r;
  } else if (!strcmp(m, "smaller")) {
    free(big);
    char *small = malloc(BIG / 2);
    memset(small, 0, BIG / 2);
    r += sweep(small, BIG / 2);
    r += peek(small, BIG / 2 + 100);
    free(small);
    return r;
  } else if (!strcmp(m, "leak")) {
    big = NULL; /* the only pointer to it, gone */
    return r;
  }
  free(big);
  printf("clean %d\n", r);
  return 0;
}
// CLEAN: clean 0
// CLEAN-NOT: mdebug

// OVER: mdebug: ERROR: heap buffer overflow in {{.*}}
// OVER-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1048576 READ PAST ITS END
// OVER-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 3000 bytes after the end of the block
// OVER-NEXT:   read at {{.*}}large_memo.c:{{[0-9]+}}:{{[0-9]+}} (peek)
// OVER: mdebug: abort_on_error: aborting

// UAF: mdebug: ERROR: use after free in {{.*}}
// UAF-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 1048576 USED AFTER FREE (read)
// UAF-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 40000 bytes inside the freed block

// SMALLER: mdebug: ERROR: heap buffer overflow in {{.*}}
// SMALLER-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 524288 READ PAST ITS END
// SMALLER-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 100 bytes after the end of the block
// SMALLER: mdebug: abort_on_error: aborting

// LEAK: mdebug: 1048576 bytes leaked in 1 block
