// Adapted from compiler-rt test/asan/TestCases/Linux/printf-fortify-3.c (vsprintf of 8 bytes into a 1-byte heap block, built with _FORTIFY_SOURCE=2 so that at -O1 the call is __vsprintf_chk; the original built the function into an uninstrumented library).
// EXPECT: - heap buffer overflow at 14
// EXPECT: clean clean
// CFLAGS: -D_FORTIFY_SOURCE=2 -Wno-cpp
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char foo(size_t size, const char *format, ...) {
  char *write_buffer = (char *)malloc(size);
  va_list ap;
  va_start(ap, format);
  vsprintf(write_buffer, format, ap);
  va_end(ap);
  char r = write_buffer[0];
  free(write_buffer);
  return r;
}

int main(int argc, char **argv) {
  return foo(argc > 1 ? 8 : 1, "%s_%s", "one", "two") != 'o';
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g -D_FORTIFY_SOURCE=2 -Wno-cpp %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s --check-prefix=CHECK
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CHECK: mdebug: ERROR: heap buffer overflow in
// CHECK-NOT: *** ***
// CHECK: printf-fortify-3.c:14:
// CLEAN-NOT: mdebug
