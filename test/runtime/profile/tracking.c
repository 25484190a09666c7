// Proves: track_enable_on_signal starts with tracking off; SIGRTMAX-12 turns
// it on and off, and so does mdebug_track(), which returns the previous
// state (-1 without sampling options): only the blocks allocated while it
// was on are tracked, and the profile says when tracking was off (L). The
// per-site totals count every block all along. The clean case: without
// track_enable_on_signal tracking is on from the start.
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 track_enable_on_signal profile_prefix=%t.d/sig" %t signal 2>&1 | %FileCheck %s --check-prefix=SIG --allow-empty
// RUN: %python %S/Inputs/profile_blocks.py %t.d/sig.*.mdprof end 16 0 0 | %FileCheck %s --check-prefix=B16-NONE
// RUN: %python %S/Inputs/profile_blocks.py %t.d/sig.*.mdprof end 24 10 10 | %FileCheck %s --check-prefix=B24-ALL
// RUN: %python %S/Inputs/profile_blocks.py %t.d/sig.*.mdprof end 40 0 0 | %FileCheck %s --check-prefix=B40-NONE
// RUN: grep '^[LC] ' %t.d/sig.*.mdprof | %FileCheck %s --check-prefix=LIMITS
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 track_enable_on_signal profile_prefix=%t.d/api" %t api 2>&1 | %FileCheck %s --check-prefix=API
// RUN: %python %S/Inputs/profile_blocks.py %t.d/api.*.mdprof end 16 0 0 | %FileCheck %s --check-prefix=B16-NONE
// RUN: %python %S/Inputs/profile_blocks.py %t.d/api.*.mdprof end 24 10 10 | %FileCheck %s --check-prefix=B24-ALL
// RUN: %python %S/Inputs/profile_blocks.py %t.d/api.*.mdprof end 40 0 0 | %FileCheck %s --check-prefix=B40-NONE
// RUN: env MDEBUG_OPTIONS="none profile_prefix=%t.d/off" %t api 2>&1 | %FileCheck %s --check-prefix=NOSAMPLING
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/on" %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %python %S/Inputs/profile_blocks.py %t.d/on.*.mdprof end 16 10 10 | %FileCheck %s --check-prefix=B16-ALL
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *keep[30];

/* To this thread, so the handler has run when it returns. */
static void toggle(void) { pthread_kill(pthread_self(), SIGRTMAX - 12); }

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  for (int i = 0; i < 10; i++)
    keep[i] = malloc(16);
  if (strcmp(how, "signal") == 0)
    toggle();
  else if (strcmp(how, "api") == 0)
    printf("on: was %d\n", mdebug_track(1));
  for (int i = 10; i < 20; i++)
    keep[i] = malloc(24);
  if (strcmp(how, "signal") == 0)
    toggle();
  else if (strcmp(how, "api") == 0)
    printf("off: was %d\n", mdebug_track(0));
  for (int i = 20; i < 30; i++)
    keep[i] = malloc(40);
  mdebug_snapshot("end");
  for (int i = 0; i < 30; i++)
    free(keep[i]);
  return 0;
}
// SIG-NOT: mdebug
// API: on: was 0
// API-NEXT: off: was 1
// NOSAMPLING: on: was -1
// NOSAMPLING-NEXT: off: was -1
// B16-NONE: 16: 0 blocks, in range
// B16-ALL: 16: 10 blocks, in range
// B24-ALL: 24: 10 blocks, in range
// B40-NONE: 40: 0 blocks, in range
// LIMITS: L 0 0 0 0 1048576 0 0
// LIMITS-NEXT: L {{[1-9][0-9]*}} 1 0 0 1048576 0 0
// LIMITS-NEXT: L {{[1-9][0-9]*}} 0 0 0 1048576 0 0
// LIMITS-DAG: C {{[0-9]+}} {{[0-9a-f]+}} 10 160 10 0 160 160
// LIMITS-DAG: C {{[0-9]+}} {{[0-9a-f]+}} 10 240 10 0 240 240
// LIMITS-DAG: C {{[0-9]+}} {{[0-9a-f]+}} 10 400 10 0 400 400
// CLEAN-NOT: mdebug
