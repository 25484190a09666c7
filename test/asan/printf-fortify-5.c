// Adapted from compiler-rt test/asan/TestCases/Linux/printf-fortify-5.c (fprintf whose format is an uninitialized 1-byte heap block with no NUL, built with _FORTIFY_SOURCE=2 so that at -O1 the call is __fprintf_chk; the original built the function into an uninstrumented library).
// EXPECT: - heap buffer overflow at 14
// EXPECT: clean clean
// CFLAGS: -D_FORTIFY_SOURCE=2 -Wno-cpp -Wno-format-security
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int foo(int clean) {
  char *read_buffer = (char *)malloc(1);
  // mdebug fills new blocks with 0xeb, ASan leaves them as they are: make
  // the byte no NUL for both.
  read_buffer[0] = clean ? '\0' : 'x';
  fprintf(stderr, read_buffer, 4096);
  int r = read_buffer[0];
  free(read_buffer);
  return r;
}

int main(int argc, char **argv) { return foo(argc > 1); }

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g -D_FORTIFY_SOURCE=2 -Wno-cpp -Wno-format-security %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: printf-fortify-5.c:14:
// CLEAN-NOT: mdebug
