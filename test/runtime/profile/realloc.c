// Proves: a realloc counts as the free of the old block (at its allocation
// site, with its size) and the allocation of the new one (at the realloc's
// site), whether the block moves or stays in its slot (no free_track: a
// slot with room keeps it); a tracked block's record follows: its free is
// recorded, and the new block is tracked afresh. The totals of both sites
// come out exact; the clean case: with free_track (always moves) the same
// figures.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/inplace" %t 2>&1 | %FileCheck %s --check-prefix=INPLACE
// RUN: grep '^[SC] ' %t.d/inplace.*.mdprof | %FileCheck %s
// RUN: %python %S/Inputs/profile_frees.py %t.d/inplace.*.mdprof | %FileCheck %s --check-prefix=FREES
// RUN: %python %S/Inputs/profile_blocks.py %t.d/inplace.*.mdprof end 110 1 1 | %FileCheck %s --check-prefix=BLOCK
// RUN: env MDEBUG_OPTIONS="none free_track sample_rate=1 profile_prefix=%t.d/moves" %t 2>&1 | %FileCheck %s --check-prefix=MOVES
// RUN: grep '^[SC] ' %t.d/moves.*.mdprof | %FileCheck %s
// RUN: %python %S/Inputs/profile_frees.py %t.d/moves.*.mdprof | %FileCheck %s --check-prefix=FREES
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  char *p = malloc(100);
  char *q = realloc(p, 110);
  printf("%s\n", q == p ? "in place" : "moved");
  mdebug_snapshot("end");
  free(q);
  return 0;
}
// INPLACE: in place
// MOVES: moved
// CHECK-DAG: S [[MALLOC:[0-9a-f]+]] malloc {{.*}}realloc.c 22 13 main char
// CHECK-DAG: S [[REALLOC:[0-9a-f]+]] realloc {{.*}}realloc.c 23 13 main char
// CHECK-DAG: C {{[0-9]+}} [[MALLOC]] 0 0 1 1 100 {{[0-9]+}}
// CHECK-DAG: C {{[0-9]+}} [[REALLOC]] 1 110 1 0 110 110
// FREES: main:22 -> main:23 size 100 x 1 stacks yes/yes same-thread 1
// BLOCK: 110: 1 blocks, in range
