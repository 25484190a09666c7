// Proves: a base pointer the program keeps in a structure and that points
// into the middle of another block (zstd's window: base = source - offset,
// stored in the match state, the source read at base + index) does not
// make the reads it bases a report, nor does one that lies at the start of
// a freed block: an access from a pointer that is not a live block's start
// is checked against the block it lands in, as AddressSanitizer checks it.
// Reading past the source's end through the same base is still reported,
// named by the source's block; so is an array indexed from its block's
// start into the next block (neighbour_write.c).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %t freed 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %not %t past 2>&1 | %FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct window {
  const char *base; /* source - start: may lie anywhere */
  long start;
};

__attribute__((noinline)) int sum_at(const struct window *w,
                                     const long *index, int n) {
  int sum = 0;
  for (int k = 0; k < n; k++)
    sum += w->base[index[k]];
  return sum;
}

int main(int argc, char **argv) {
  char *dict = malloc(64), *src = malloc(60);
  memset(dict, 'd', 64);
  memset(src, 's', 60);
  struct window *w = malloc(sizeof *w);
  /* base = src - start points 8 bytes into the dictionary's block, or
   * (freed) at the start of a block freed before */
  char *gone = malloc(64);
  free(gone);
  int freed = argc > 1 && strcmp(argv[1], "freed") == 0;
  int past = argc > 1 && !freed;
  w->start = freed ? src - gone : src - dict - 8;
  w->base = src - w->start;
  long index[2] = {w->start + 3, w->start + (past ? 62 : 5)};
  int sum = sum_at(w, index, 2); /* src[3] + src[5] */
  printf("sum %s\n", sum == 2 * 's' ? "right" : "wrong");
  free(w);
  free(dict);
  free(src);
  return 0;
}
// CLEAN-NOT: mdebug
// CLEAN: sum right
// CLEAN-NOT: mdebug
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 60 READ PAST ITS END
// CHECK-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 2 bytes after the end of the block
// CHECK-NEXT:   read at {{.*}}stored_base.c:27:12 (sum_at)
// CHECK-NEXT:   allocated by malloc at {{.*}}stored_base.c:32:35 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 heap buffer overflow)
