// Proves: with backtrace_enable_on_signal (bt_en_on_sig) allocations get no
// stack until SIGRTMAX-19 turns capture on, and the next SIGRTMAX-19 turns
// it off again (a raise() toggles it before it returns). Without the
// signal nothing is captured; with plain backtrace everything is.
// RUN: %mdebug_clang -O1 -g -I%mdebug_include %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace_enable_on_signal %t toggle 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=bt_en_on_sig %t toggle 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS=bt_en_on_sig %t 2>&1 | %FileCheck %s --check-prefix=NEVER
// RUN: env MDEBUG_OPTIONS=backtrace %t 2>&1 | %FileCheck %s --check-prefix=ALWAYS
#include <mdebug/mdebug.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

void *kept[3];
__attribute__((noinline)) void *make(void) { return malloc(16); }

int main(int argc, char **argv) {
  int toggle = argc > 1;
  kept[0] = make();
  if (toggle)
    raise(SIGRTMAX - 19);
  kept[1] = make();
  if (toggle)
    raise(SIGRTMAX - 19);
  kept[2] = make();
  for (int i = 0; i < 3; i++) {
    uintptr_t frames[8];
    printf("block %d: %zd frames\n", i, malloc_backtrace(kept[i], frames, 8));
  }
  return 0;
}
// CHECK: block 0: 0 frames
// CHECK-NEXT: block 1: 3 frames
// CHECK-NEXT: block 2: 0 frames
// NEVER: block 0: 0 frames
// NEVER-NEXT: block 1: 0 frames
// NEVER-NEXT: block 2: 0 frames
// ALWAYS: block 0: 3 frames
// ALWAYS-NEXT: block 1: 3 frames
// ALWAYS-NEXT: block 2: 3 frames
