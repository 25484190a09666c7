// Proves: sample_rate=N tracks each allocation with probability 1/N at
// random (10000 live 64-byte blocks at sample_rate=10 give about 1000
// tracked ones: the bounds are 7 standard deviations wide), with a stack
// and an allocation time, and mdebug-report scales them back up (about 10000
// blocks' worth, 640000 bytes, in the folded output); sample_rate=1 tracks every one; the
// per-site totals are exact whatever the sampling. The clean case: no
// sampling option, no tracked block, the totals still exact.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_rate=10 profile_prefix=%t.d/ten" %t
// RUN: %python %S/Inputs/profile_blocks.py %t.d/ten.*.mdprof end 64 780 1220 | %FileCheck %s --check-prefix=TEN
// RUN: %mdebug_report --format=folded --snapshot=end --function=keep %t.d/ten.*.mdprof | %python %S/Inputs/in_range.py '(keep)' 505600 774400 | %FileCheck %s --check-prefix=FOLDED
// RUN: grep '^C ' %t.d/ten.*.mdprof | %FileCheck %s --check-prefix=EXACT
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/one" %t
// RUN: %python %S/Inputs/profile_blocks.py %t.d/one.*.mdprof end 64 10000 10000 | %FileCheck %s --check-prefix=ONE
// RUN: grep '^B ' %t.d/one.*.mdprof | %FileCheck %s --check-prefix=STACK
// RUN: env MDEBUG_OPTIONS="none profile_prefix=%t.d/none" %t
// RUN: %python %S/Inputs/profile_blocks.py %t.d/none.*.mdprof end 64 0 0 | %FileCheck %s --check-prefix=NONE
// RUN: grep '^C ' %t.d/none.*.mdprof | %FileCheck %s --check-prefix=EXACT
#include <mdebug/mdebug.h>
#include <stdlib.h>

#define N 10000
static void *blocks[N];

static void keep(int i) { blocks[i] = malloc(64); }

int main(void) {
  for (int i = 0; i < N; i++)
    keep(i);
  mdebug_snapshot("end");
  for (int i = 0; i < N; i++)
    free(blocks[i]);
  return 0;
}
// TEN: 64: {{[0-9]+}} blocks, in range
// The estimate: 10000 blocks of 64 bytes, give or take 7 deviations.
// FOLDED: {{[0-9]+}} in range
// EXACT: C {{[0-9]+}} {{[0-9a-f]+}} 10000 640000 10000 0 640000 640000
// ONE: 64: 10000 blocks, in range
// STACK: B 0 {{[0-9a-f]+}} 64 {{[1-9][0-9]*}} {{[0-9]+}} {{[0-9]+}} {{[0-9a-f]+}}
// NONE: 64: 0 blocks, in range
