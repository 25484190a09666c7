// Proves: a read before a block's start (into the slot before it, which
// holds another block's slack) is reported as a heap buffer overflow of the
// block the address was computed from, "N bytes before its start"; a read
// that straddles the start counts the bytes before it. The clean twin reads
// the first byte.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %not %t straddle 2>&1 | %FileCheck %s --check-prefix=STRADDLE
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char byte_at(const char *s, long i) { return s[i]; }
__attribute__((noinline)) long word_at(const char *s, long i) {
  long w;
  memcpy(&w, s + i, sizeof w);
  return w;
}

int main(int argc, char **argv) {
  char *before = malloc(20), *s = calloc(1, 20);
  int r;
  if (argc > 1 && !strcmp(argv[1], "straddle"))
    r = (int)word_at(s, -3);
  else
    r = byte_at(s, argc > 1 ? 0 : -1);
  free(s);
  free(before);
  return r;
}
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 20 READ BEFORE ITS START
// CHECK-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 1 byte before the block
// CHECK-NEXT:   read at {{.*}}under_read.c:13:72 (byte_at)
// CHECK-NEXT:   allocated by calloc at {{.*}}under_read.c:21:35 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 heap buffer overflow)
// STRADDLE: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 20 READ BEFORE ITS START
// STRADDLE-NEXT:   read of size 8 at 0x{{[0-9a-f]+}}: its first 3 bytes before the block
// STRADDLE-NEXT:   read at {{.*}}under_read.c:16:3 (word_at)
// CLEAN-NOT: mdebug
