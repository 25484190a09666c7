// Proves: md_escape turns control bytes, DEL and backslashes into visible
// escapes (so text from outside never drives the terminal), keeps other
// bytes, and truncates to the buffer with a terminating NUL.
// RUN: %clang -O1 -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared -I%mdebug_include %s %mdebug_rt_a -o %t
// RUN: %t | %FileCheck %s
// CHECK: print_test: {{[0-9]+}} passed, 0 failed
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "print.h"

static int passed, failed;

static void expect(const char *in, size_t n, size_t size, const char *want) {
  char buf[128];
  size_t len = md_escape(buf, size, in, n);
  if (strcmp(buf, want) == 0 && len == strlen(want)) {
    passed++;
  } else {
    failed++;
    printf("FAIL: got [%s] (%zu), want [%s]\n", buf, len, want);
  }
}

int main(void) {
  expect("plain text", 10, 128, "plain text");
  expect("a\nb\tc\rd", 7, 128, "a\\nb\\tc\\rd");
  expect("\x1b[31mred", 8, 128, "\\x1b[31mred");
  expect("back\\slash\x7f", 11, 128, "back\\\\slash\\x7f");
  expect("nul\0byte", 8, 128, "nul\\x00byte");
  expect("caf\xc3\xa9", 5, 128, "caf\xc3\xa9"); /* UTF-8 kept */
  expect("abcdefg", 7, 5, "abcd");
  expect("\x01\x02", 2, 6, "\\x01");
  printf("print_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
