// Proves: the C library's thread-local data (errno) and the ctype tables
// its accessors point to (isalpha, tolower, toupper) are never heap blocks:
// their loads and stores are not instrumented (a string scanner pays no
// probe per character for them), while the heap string read in the same
// loop still is: a read one past its end is reported at that read.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clang -fmdebug-check-access -mllvm -mdebug-access-stats -O1 -DONLY_LIBC -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=STATS
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int classify(int c) {
  errno = 0;
  return (isalpha(c) ? 1 : 0) + (isdigit(c) ? 2 : 0) + tolower(c) + toupper(c) +
         errno;
}
// STATS: mdebug: {{.*}}libc_tables.c: [[N:[1-9][0-9]*]] loads and stores, 0 on the stack, [[N]] in globals, 0 checked

#ifndef ONLY_LIBC
__attribute__((noinline)) int scan(const char *s, size_t n) {
  int sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += classify(s[i]);
  return sum;
}

int main(int argc, char **argv) {
  char *s = malloc(8);
  memcpy(s, "ab3def7h", 8);
  int r = scan(s, argc > 1 ? 8 : 9); /* the dirty run reads s[8] */
  free(s);
  return r == 12345;
}
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 READ PAST ITS END
// CHECK-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// CHECK-NEXT:   read at {{.*}}libc_tables.c:26:{{[0-9]+}} (scan)
// CLEAN-NOT: mdebug
#endif
