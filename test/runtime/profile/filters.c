// Proves: track_min_size=S leaves blocks under S bytes untracked, whatever
// the sampling; track_max_size=S tracks every block over S bytes however
// rare the sampling (memstat's FilterOutBelowSize / FilterInAboveSize), and
// mdebug-report counts those at their true weight (1, not the sample rate);
// the profile records both (L) and the report names them. max_tracked=N
// caps the live tracked blocks: one warning when the cap is hit, the blocks
// left out counted in the profile and reported by mdebug-report. The clean
// case: sample_rate=1 alone tracks every block of every size.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 track_min_size=500 profile_prefix=%t.d/min" %t 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %python %S/Inputs/profile_blocks.py %t.d/min.*.mdprof end 100 0 0 | %FileCheck %s --check-prefix=SMALL-NONE
// RUN: %python %S/Inputs/profile_blocks.py %t.d/min.*.mdprof end 2000 50 50 | %FileCheck %s --check-prefix=LARGE-ALL
// RUN: env MDEBUG_OPTIONS="none sample_rate=1000000 track_max_size=1000 profile_prefix=%t.d/max" %t 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %python %S/Inputs/profile_blocks.py %t.d/max.*.mdprof end 2000 50 50 | %FileCheck %s --check-prefix=LARGE-ALL
// RUN: %python %S/Inputs/profile_blocks.py %t.d/max.*.mdprof end 100 0 5 | %FileCheck %s --check-prefix=SMALL-FEW
// RUN: grep '^L ' %t.d/max.*.mdprof | %FileCheck %s --check-prefix=L-MAX
// RUN: %mdebug_report --format=folded --snapshot=end --function=large %t.d/max.*.mdprof | %FileCheck %s --check-prefix=WEIGHT
// RUN: %mdebug_report --report=growth %t.d/max.*.mdprof | %FileCheck %s --check-prefix=REPORT-FILTERS
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 max_tracked=30 profile_prefix=%t.d/cap" %t 2>&1 | %FileCheck %s --check-prefix=CAP
// RUN: %python %S/Inputs/profile_blocks.py %t.d/cap.*.mdprof end 100 0 30 | %FileCheck %s --check-prefix=SMALL-CAPPED
// RUN: grep '^L ' %t.d/cap.*.mdprof | %FileCheck %s --check-prefix=L-CAP
// RUN: %mdebug_report --report=growth %t.d/cap.*.mdprof | %FileCheck %s --check-prefix=REPORT-CAP
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/all" %t 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %python %S/Inputs/profile_blocks.py %t.d/all.*.mdprof end 100 500 500 | %FileCheck %s --check-prefix=SMALL-ALL
// RUN: %python %S/Inputs/profile_blocks.py %t.d/all.*.mdprof end 2000 50 50 | %FileCheck %s --check-prefix=LARGE-ALL
#include <mdebug/mdebug.h>
#include <stdlib.h>

static void *small_blocks[500], *large_blocks[50];

static void small(int i) { small_blocks[i] = malloc(100); }
static void large(int i) { large_blocks[i] = malloc(2000); }

int main(void) {
  for (int i = 0; i < 500; i++) {
    small(i);
    if (i % 10 == 0)
      large(i / 10);
  }
  mdebug_snapshot("end");
  for (int i = 0; i < 500; i++)
    free(small_blocks[i]);
  for (int i = 0; i < 50; i++)
    free(large_blocks[i]);
  return 0;
}
// QUIET-NOT: mdebug
// SMALL-NONE: 100: 0 blocks, in range
// SMALL-FEW: 100: {{[0-9]+}} blocks, in range
// SMALL-ALL: 100: 500 blocks, in range
// SMALL-CAPPED: 100: {{[0-9]+}} blocks, in range
// LARGE-ALL: 2000: 50 blocks, in range
// L-MAX: L 0 1 0 1000 1048576 0 0
// Each large block stands for itself: 50 x 2000 bytes.
// WEIGHT: ;large;malloc at {{.*}}filters.c:{{[0-9]+}}:{{[0-9]+}} (large) 100000
// REPORT-FILTERS: Filters: track_min_size=0 track_max_size=1000 (blocks under the first are never tracked, over the second always)
// CAP: mdebug: max_tracked=30 reached: blocks sampled from now on are not tracked while 30 are live (the profile says how many were left out)
// CAP-NOT: max_tracked
// L-CAP: L 0 1 0 0 30 0 0
// L-CAP: L {{[0-9]+}} 1 0 0 30 {{[1-9][0-9]+}} 0
// REPORT-CAP: max_tracked=30 was reached: {{[1-9][0-9]+}} sampled blocks were not tracked, so the estimates from snapshots and frees are low (periodic totals are exact)
