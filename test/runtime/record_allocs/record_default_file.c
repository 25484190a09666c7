// Proves: without record_allocs_file the records go to
// /tmp/record_allocs.txt on SIGRTMAX-18, and to /tmp/record_allocs.txt.PID
// at exit with record_allocs_on_exit (seen by the parent of a child that
// exits). The test removes both files.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit" %t 2>&1 | %FileCheck %s
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"

int main(void) {
  const char *signal_file = "/tmp/record_allocs.txt";
  char exit_file[64];
  unlink(signal_file);
  free(malloc(17));
  raise(SIGRTMAX - 18);
  int ok = wait_for_text(signal_file, ": free 0x");
  fprintf(stderr, "%s %s\n", ok ? "written:" : "missing:", signal_file);
  unlink(signal_file);
  pid_t child = fork();
  if (child == 0) {
    free(malloc(18));
    exit(0);
  }
  waitpid(child, NULL, 0);
  snprintf(exit_file, sizeof(exit_file), "/tmp/record_allocs.txt.%d", (int)child);
  ok = wait_for_text(exit_file, " 18 ");
  fprintf(stderr, "%s /tmp/record_allocs.txt.<child %d>\n", ok ? "written:" : "missing:", (int)child);
  unlink(exit_file);
  _exit(0); /* the parent writes no exit file of its own */
}
// CHECK: written: /tmp/record_allocs.txt
// CHECK: written: /tmp/record_allocs.txt.<child {{[0-9]+}}>
