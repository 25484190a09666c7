// Proves: SIGRTMAX-14 appends a snapshot labelled "signal" to the heap
// profile when a profile option is set, at once, though the program never
// allocates again (the signal service thread takes it); the exit adds its
// own. The clean case: without a profile option mdebug does not arm the
// signal (its disposition stays the default; the program ignores it) and
// writes no profile.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none profile_prefix=%t.d/prof" %t %t.d/prof 2>&1 | %FileCheck %s
// RUN: grep '^A ' %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=FILE
// RUN: env MDEBUG_OPTIONS="none verbose profile_prefix=%t.d/verbose" %t %t.d/verbose 2>&1 | %FileCheck %s --check-prefix=VERBOSE
// RUN: env MDEBUG_OPTIONS=none %t %t.d/off ignore 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: ls %t.d | %FileCheck %s --check-prefix=FILES
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Inputs/wait_profile.h"

static char *keep;

int main(int argc, char **argv) {
  struct sigaction sa;
  sigaction(SIGRTMAX - 14, NULL, &sa);
  printf("%s\n", sa.sa_handler == SIG_DFL ? "default" : "armed");
  if (argc > 2 && strcmp(argv[2], "ignore") == 0)
    signal(SIGRTMAX - 14, SIG_IGN);
  keep = malloc(100);
  kill(getpid(), SIGRTMAX - 14);
  if (argc > 2)
    printf("not waiting\n");
  else
    printf("%s\n", wait_for_snapshots(argv[1], "signal", 1)
                       ? "snapshot taken"
                       : "no snapshot after 30 s");
  free(keep);
  return 0;
}
// CHECK-NOT: mdebug
// CHECK: armed
// CHECK-NEXT: snapshot taken
// FILE: A 0 {{[0-9]+}} 0 signal
// FILE-NEXT: A 1 {{[0-9]+}} 0 exit
// VERBOSE: mdebug: {{.*}}: Run: 'kill -{{[0-9]+}} {{[0-9]+}}' to append a snapshot to the heap profile.
// VERBOSE: snapshot taken
// CLEAN-NOT: mdebug
// CLEAN: default
// CLEAN-NEXT: not waiting
// CLEAN-NOT: mdebug
// FILES-NOT: off
// FILES: prof.{{[0-9]+}}.mdprof
// FILES-NEXT: verbose.{{[0-9]+}}.mdprof
// FILES-NOT: off
