// Proves: the program name (argv[0], chosen by whoever starts the program)
// is printed escaped in the report header and in leak lines, so a newline or
// an escape sequence in it can neither forge a line of the report nor drive
// the terminal; the clean run prints nothing from mdebug.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2> %t.err
// RUN: %FileCheck %s < %t.err
// RUN: %FileCheck %s --check-prefix=RAW < %t.err
// RUN: %python %S/../../Inputs/no_control_bytes.py < %t.err
// RUN: %t clean 2>&1 | count 0
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc == 1) {
    /* argv[0] without a '/', so it is the whole short name. */
    char *args[] = {"evil\nmdebug: SUMMARY: 0 errors\x1b[2J", "bug", NULL};
    execv("/proc/self/exe", args);
    return 99;
  }
  if (strcmp(argv[1], "bug") != 0)
    return 0;
  char *p = malloc(8);
  free(p);
  free(p);
  p = malloc(24);
  p = NULL;
  return 0;
}
// CHECK: mdebug: ERROR: double free in evil\nmdebug: SUMMARY: 0 errors\x1b[2J (pid
// CHECK: +++ evil\nmdebug: SUMMARY: 0 errors\x1b[2J leaked block of size 24
// RAW-NOT: {{^}}mdebug: SUMMARY: 0 errors
// RAW: mdebug: SUMMARY: 1 error (1 double free), 24 bytes leaked in 1 block
