// Proves: an address computed from a merge (a select or phi) of pointers
// taken at variable offsets is checked against the block it lands in, as
// AddressSanitizer checks it, not against the block the merged pointer
// happens to point into. Compressors keep `base = source - offset` (LZ4's
// streaming mode: base, or the dictionary's, plus an index), and that base
// may lie inside another buffer: reading the source through it is correct
// and is not reported. Reading past the source's end through it still is.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %not %t past 2>&1 | %FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int sum_at(const char *src, const char *dict_base,
                                     long start, const long *index, int n,
                                     int in_dict) {
  const char *base = in_dict ? dict_base : src - start;
  int sum = 0;
  for (int k = 0; k < n; k++)
    sum += base[index[k]];
  return sum;
}

int main(int argc, char **argv) {
  char *a = malloc(64), *b = malloc(64);
  char *dict = a < b ? a : b, *src = a < b ? b : a;
  memset(dict, 'd', 64);
  memset(src, 's', 64);
  /* base = src - start points 8 bytes into the dictionary's block */
  long start = src - dict - 8;
  long index[2] = {start + 3, start + (argc > 1 ? 64 + 2 : 5)};
  int sum = sum_at(src, dict - start, start, index, 2, 0); /* src[3] + src[5] */
  printf("sum %s\n", sum == 2 * 's' ? "right" : "wrong");
  free(a);
  free(b);
  return 0;
}
// CLEAN-NOT: mdebug
// CLEAN: sum right
// CLEAN-NOT: mdebug
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 64 READ PAST ITS END
// CHECK-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 2 bytes after the end of the block
// CHECK-NEXT:   read at {{.*}}merged_base.c:21:12 (sum_at)
// CHECK: mdebug: SUMMARY: 1 error (1 heap buffer overflow)
