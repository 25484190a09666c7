// Proves: without record_allocs_file the records go to a file of the
// process's own, /tmp/record_allocs.PID.txt, on SIGRTMAX-18, and to
// /tmp/record_allocs.PID.exit.txt at exit with record_allocs_on_exit (seen
// by the parent of a child that exits), never to a name another process
// shares; no /tmp/record_allocs.txt appears. The test removes the files.
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit" %t 2>&1 | %FileCheck %s
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"

int main(void) {
  char signal_file[64], exit_file[64];
  struct stat st;
  snprintf(signal_file, sizeof(signal_file), "/tmp/record_allocs.%d.txt",
           (int)getpid());
  unlink(signal_file);
  int shared_before = stat("/tmp/record_allocs.txt", &st) == 0;
  free(malloc(17));
  raise(SIGRTMAX - 18);
  int ok = wait_for_text(signal_file, ": free 0x");
  fprintf(stderr, "%s /tmp/record_allocs.<pid>.txt\n", ok ? "written:" : "missing:");
  unlink(signal_file);
  pid_t child = fork();
  if (child == 0) {
    free(malloc(18));
    exit(0);
  }
  waitpid(child, NULL, 0);
  snprintf(exit_file, sizeof(exit_file), "/tmp/record_allocs.%d.exit.txt",
           (int)child);
  ok = wait_for_text(exit_file, " 18 ");
  fprintf(stderr, "%s /tmp/record_allocs.<child>.exit.txt\n", ok ? "written:" : "missing:");
  unlink(exit_file);
  if (!shared_before && stat("/tmp/record_allocs.txt", &st) == 0)
    fprintf(stderr, "written: the shared /tmp/record_allocs.txt\n");
  _exit(0); /* the parent writes no exit file of its own */
}
// CHECK-NOT: shared
// CHECK: written: /tmp/record_allocs.<pid>.txt
// CHECK: written: /tmp/record_allocs.<child>.exit.txt
// CHECK-NOT: shared
