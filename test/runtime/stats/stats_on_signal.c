// Proves: with log_allocator_stats_on_signal, SIGRTMAX-15 makes the service
// thread log the allocator stats: the live blocks the program holds (with
// mdebug's overhead per block), the free_track quarantine (exactly the 5
// blocks of 100 bytes freed), the stack depot (with backtrace only) and
// the heap's figures. (The log goes to log_path so the program can wait for it.)
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_allocator_stats_on_signal log_path=%t.d/log" %t %t.d/log
// RUN: %FileCheck %s --check-prefixes=CHECK,NOBT --input-file %t.d/log.*
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="log_allocator_stats_on_signal backtrace log_path=%t.d/log" %t %t.d/log
// RUN: %FileCheck %s --check-prefixes=CHECK,BT --input-file %t.d/log.*
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../Inputs/wait_file.h"

void *kept[10];
int main(int argc, char **argv) {
  char path[4096];
  for (int i = 0; i < 10; i++)
    kept[i] = malloc(100);
  for (int i = 0; i < 5; i++)
    free(kept[i]);
  snprintf(path, sizeof(path), "%s.%d", argv[1], (int)getpid());
  raise(SIGRTMAX - 15);
  if (!wait_for_text(path, "stats: heap"))
    fprintf(stderr, "no stats logged\n");
  for (int i = 5; i < 10; i++)
    free(kept[i]);
  return 0;
}
// CHECK: mdebug: Logging allocator stats...
// CHECK-NEXT: mdebug: stats: live: {{[0-9]+}} blocks, {{[0-9]+}} bytes requested, {{[0-9]+}} bytes of mdebug overhead ({{[0-9]+}} per block)
// CHECK-NEXT: mdebug: stats: free_track: 5 blocks, 500 bytes held
// BT-NEXT: mdebug: stats: stack depot: {{[1-9][0-9]*}} stacks, {{[0-9]+}} bytes, 0 dropped
// NOBT-NOT: stack depot
// CHECK-NEXT: mdebug: stats: heap: {{[0-9]+}} bytes committed in size classes ({{[0-9]+}} free slots), {{[0-9]+}} bytes given back to the OS so far; {{[0-9]+}} large blocks in {{[0-9]+}} bytes of mappings
// CHECK-NOT: Logging allocator stats
