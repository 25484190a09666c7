// Proves: without backtrace_dump_prefix, SIGRTMAX-17 writes the heap dump
// to /tmp/backtrace_heap.PID.txt (the test removes it afterwards).
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace %t 2>&1 | %FileCheck %s
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"

int main(void) {
  char path[64];
  snprintf(path, sizeof(path), "/tmp/backtrace_heap.%d.txt", (int)getpid());
  unlink(path);
  raise(SIGRTMAX - 17);
  int ok = wait_for_file_ending(path, "END\n");
  printf("%s %s\n", ok ? "complete:" : "missing:", path);
  unlink(path);
  return 0;
}
// CHECK: mdebug: Dumping to file: /tmp/backtrace_heap.[[PID:[0-9]+]].txt
// CHECK: complete: /tmp/backtrace_heap.[[PID]].txt
