// Proves: a program that calls abort() gets mdebug's SUMMARY line before it
// dies of SIGABRT, also after a leak check through the API (its leaks are
// counted) and when abort_on_error aborts after the first error. The
// summary line is written once, whichever way.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=PLAIN
// RUN: %python %S/../../Inputs/exit_status.py %t leak 2>&1 | %FileCheck %s --check-prefix=LEAK
// RUN: env MDEBUG_OPTIONS=abort_on_error %python %S/../../Inputs/exit_status.py %t double 2>&1 | %FileCheck %s --check-prefix=ON-ERROR
// Clean case: no abort, nothing from mdebug.
// RUN: %t clean 2>&1 | count 0
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_check_util.h"

__attribute__((noinline)) static void lose(void) {
  char *p = malloc(33);
  memset(p, 1, 33);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "clean") == 0)
    return 0;
  if (strcmp(mode, "leak") == 0) {
    lose();
    scrub_stack();
    mdebug_check_leaks();
  }
  if (strcmp(mode, "double") == 0) {
    char *p = malloc(5);
    free(p);
    free(p);
  }
  fprintf(stderr, "aborting\n");
  abort();
}
// PLAIN: aborting
// PLAIN-NEXT: mdebug: SUMMARY: 0 errors, then SIGABRT (aborted); leaks at exit not checked
// PLAIN-NEXT: killed by signal 6
// LEAK: Direct leak of 33 bytes in 1 block
// LEAK: aborting
// LEAK-NEXT: mdebug: SUMMARY: 0 errors, 33 bytes leaked in 1 block, then SIGABRT (aborted); leaks at exit not checked
// LEAK-NEXT: killed by signal 6
// ON-ERROR: DOUBLE FREE (free)
// ON-ERROR: mdebug: abort_on_error: aborting
// ON-ERROR-NEXT: mdebug: SUMMARY: 1 error (1 double free), then SIGABRT (aborted); leaks at exit not checked
// ON-ERROR-NOT: SUMMARY
// ON-ERROR: killed by signal 6
