// Proves: when a helper calls exit() while main's frame still holds its
// pointers (a tool giving up on an error), the frames live at that call
// are roots: main's block is not reported and the program's own status 1
// is kept (at -O0, and at -O2 where it is held in a struct whose address
// the helper gets, as a tool's state is). A block lost before the call is still reported, with status
// 23: the dead frames below exit() and after main returns are not roots
// (the clean run returns from main holding only the lost block's twin in
// a dead frame: reported too, which shows glibc's exit after main does not
// come through the runtime's exit()).
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: %mdebug_clang -g -O2 -I%S/../../Inputs %s -o %t.O2
// RUN: %python %S/../../Inputs/exit_status.py %t 2>&1 | %FileCheck %s --check-prefix=HELD
// RUN: %python %S/../../Inputs/exit_status.py %t.O2 2>&1 | %FileCheck %s --check-prefix=HELD
// RUN: %python %S/../../Inputs/exit_status.py %t lose 2>&1 | %FileCheck %s --check-prefix=LOST
// RUN: %python %S/../../Inputs/exit_status.py %t.O2 lose 2>&1 | %FileCheck %s --check-prefix=LOST
// RUN: %python %S/../../Inputs/exit_status.py %t return 2>&1 | %FileCheck %s --check-prefix=RETURN
// The same with the shared runtime preloaded into a program built without
// mdebug: its exit() interposes as well.
// RUN: %clang -g -I%S/../../Inputs %s -o %t.plain
// RUN: %python %S/../../Inputs/exit_status.py env LD_PRELOAD=%mdebug_rt_so %t.plain 2>&1 | %FileCheck %s --check-prefix=HELD
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_check_util.h"

struct state {
  char *config;
};

static __attribute__((noinline)) void give_up(struct state *st, const char *why) {
  fprintf(stderr, "error: %s (%c)\n", why, st->config[1]);
  exit(1);
}

static __attribute__((noinline)) void lose(void) {
  char *p = malloc(40);
  memset(p, 'l', 40);
  __asm__ volatile("" : : "r"(p) : "memory");
}

int main(int argc, char **argv) {
  struct state st;
  char *config = malloc(120);
  memset(config, 'c', 120);
  st.config = config;
  __asm__ volatile("" : : "r"(config) : "memory");
  if (argc > 1 && strcmp(argv[1], "lose") == 0)
    lose();
  scrub_stack();
  if (argc > 1 && strcmp(argv[1], "return") == 0)
    return 0; /* main's frame dies with config in it */
  if (config[0] == 'c')
    give_up(&st, "bad input");
  free(config);
  return 0;
}
// HELD: error: bad input (c)
// HELD-NOT: mdebug
// HELD: exit status: 1
// LOST: error: bad input (c)
// LOST-NEXT: ***
// LOST-NEXT: mdebug: ERROR: memory leak in {{.*}}
// LOST-NEXT: mdebug: 40 bytes leaked in 1 block (1 direct, 0 indirect); 1 block (120 bytes) still reachable
// LOST-NEXT: Direct leak of 40 bytes in 1 block:
// LOST-NEXT:   allocated by malloc at {{.*}}exit_below_main.c:37:13 (lose)
// LOST: mdebug: SUMMARY: 0 errors, 40 bytes leaked in 1 block
// LOST-NEXT: exit status: 23
// RETURN: mdebug: ERROR: memory leak in {{.*}}
// RETURN-NEXT: mdebug: 120 bytes leaked in 1 block (1 direct, 0 indirect); 0 blocks (0 bytes) still reachable
// RETURN: exit status: 23
