// Proves: mdebug_snapshot("label") appends a snapshot to PREFIX.PID.mdprof
// (profile_prefix): sites with their types, exact per-site totals, the live
// tracked blocks (sample_rate=1: all of them) with their sizes and stacks;
// the exit adds a last snapshot ("exit") and the end record; mdebug-report
// reads the file back: allocation points from the exact totals, the diff of
// two snapshots, the live blocks of one. The clean case: without the calls
// and without profile options, mdebug says nothing and writes no profile.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/prof" %t snap 2>&1 | %FileCheck %s --check-prefix=OUT --allow-empty
// RUN: cat %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=FILE
// RUN: %mdebug_report --report=alloc-points %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=POINTS
// RUN: %mdebug_report --report=diff --diff=before,after %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=DIFF
// RUN: %mdebug_report --report=allocations --snapshot=before --limit=0 %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=BLOCKS
// RUN: rm -rf %t.clean && mkdir -p %t.clean && cd %t.clean
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: ls %t.clean | count 0
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
  struct node *next;
  char name[24];
};

static struct node *list;

static void push(void) {
  struct node *n = malloc(sizeof(struct node));
  n->next = list;
  list = n;
}

static char *buffers[10];

int main(int argc, char **argv) {
  int snap = argc > 1 && strcmp(argv[1], "snap") == 0;
  for (int i = 0; i < 30; i++)
    push();
  for (int i = 0; i < 10; i++)
    buffers[i] = malloc(1000);
  if (snap && mdebug_snapshot("before") != 0)
    printf("snapshot failed\n");
  for (int i = 0; i < 10; i++)
    free(buffers[i]);
  for (int i = 0; i < 20; i++)
    push();
  if (snap && mdebug_snapshot("after") != 0)
    printf("snapshot failed\n");
  return 0;
}
// OUT-NOT: mdebug
// OUT-NOT: failed
// FILE: MDPROF 1
// FILE: H pid=[[PID:[0-9]+]] {{.*}}program=snapshot_api.c.tmp options=none%20sample_rate=1%20profile_prefix=
// FILE: P 0 1 0
// FILE: L 0 1 0 0 1048576 0 0
// FILE: S [[NODE:[0-9a-f]+]] malloc {{.*}}snapshot_api.c 31 20 push struct%20node - 0
// FILE: S [[BUF:[0-9a-f]+]] malloc {{.*}}snapshot_api.c 43 18 main char - 0
// FILE: T {{[0-9]+}}
// FILE-DAG: C {{[0-9]+}} [[NODE]] 30 960 30 0 960 960
// FILE-DAG: C {{[0-9]+}} [[BUF]] 10 10000 10 0 10000 10000
// FILE: A 0 {{[0-9]+}} {{[0-9]+}} before
// FILE: T {{[0-9]+}}
// FILE-DAG: C {{[0-9]+}} [[NODE]] 50 1600 50 0 1600 1600
// FILE-DAG: C {{[0-9]+}} [[BUF]] 0 0 10 10 10000 10000
// FILE: A 1 {{[0-9]+}} {{[0-9]+}} after
// FILE: A 2 {{[0-9]+}} {{[0-9]+}} exit
// FILE-NEXT: B 2
// FILE: E {{[0-9]+}}
// POINTS: 1 1.6 KiB {{.*}}% 50 50 0 32 B 1.6 KiB {{[0-9a-f]+}} malloc at {{.*}}snapshot_api.c:31:20 (push) as struct node
// POINTS-NEXT: #00 pc 0x{{[0-9a-f]+}} in push {{.*}}snapshot_api.c:31:{{[0-9]+}} ({{.*}}snapshot_api.c.tmp){{$}}
// POINTS-NEXT: #01 pc 0x{{[0-9a-f]+}} in main {{.*}}snapshot_api.c:{{[0-9]+}}:{{[0-9]+}} ({{.*}}snapshot_api.c.tmp){{$}}
// POINTS: 0 B 0.0% 0 10 10 1000 B 9.8 KiB {{[0-9a-f]+}} malloc at {{.*}}snapshot_api.c:43:18 (main) as char
// DIFF: 1 +640 B 960 B 1.6 KiB 30 50 {{[0-9a-f]+}} malloc at {{.*}}snapshot_api.c:31:20 (push) as struct node
// DIFF-NEXT: 2 -9.8 KiB 9.8 KiB 0 B 10 0 {{[0-9a-f]+}} malloc at {{.*}}snapshot_api.c:43:18 (main) as char
// BLOCKS-COUNT-10: 1000 B {{.*}}snapshot_api.c:43:18 (main) as char
// CLEAN-NOT: mdebug
