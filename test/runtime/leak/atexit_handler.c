// Proves: leaks are judged after the program's own atexit handlers have run:
// a block an atexit handler allocates and drops is reported (with the
// handler's site), and one it frees again is not.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>

static int release_again;

static void save_state(void) {
  char *state = malloc(128);
  snprintf(state, 128, "state at exit");
  if (release_again)
    free(state);
}

int main(int argc, char **argv) {
  release_again = argc > 1;
  atexit(save_state);
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 128 bytes leaked in 1 block
// CHECK-NEXT: 128 bytes in 1 block:
// CHECK-NEXT:   allocated by malloc at {{.*}}atexit_handler.c:13:17 (save_state)
// CHECK: mdebug: SUMMARY: 0 errors, 128 bytes leaked in 1 block
// CLEAN-NOT: mdebug
