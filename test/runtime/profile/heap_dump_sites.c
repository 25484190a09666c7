// Proves: a heap dump names, after each record, the instrumented sites of
// its blocks with their types and counts (mdebug's "  sites" line; the file
// stays a valid v1.2 dump for the strict checker), so even without stacks
// mdebug-report names every allocation point and its type; blocks from
// code that was not instrumented (a call through a pointer of
// reallocarray's type: the pass gives sites only to pointers of malloc's,
// calloc's, realloc's and free's) get no sites line and are named by their
// stack, as before.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS=none %t %t.d/dump.txt 2>&1 | %FileCheck %s --check-prefix=OUT
// RUN: %python %S/../../Inputs/heap_dump_check.py %t.d/dump.txt | %FileCheck %s --check-prefix=VALID
// RUN: grep -A1 '^z 0  sz       40' %t.d/dump.txt | %FileCheck %s --check-prefix=SITES
// RUN: grep -A1 '^z 0  sz       72' %t.d/dump.txt | %FileCheck %s --check-prefix=NOSITES
// RUN: %mdebug_report --report=alloc-points %t.d/dump.txt | %FileCheck %s --check-prefix=REPORT
#include <mdebug/mdebug.h>
#include <stdio.h>
#include <stdlib.h>

struct record {
  long id;
  char name[32];
};

static struct record *make(void) { return malloc(sizeof(struct record)); }

static void *(*volatile plain_alloc)(void *, size_t, size_t) = reallocarray;

static void *keep[8];

int main(int argc, char **argv) {
  for (int i = 0; i < 5; i++)
    keep[i] = make();
  keep[5] = calloc(1, sizeof(struct record));
  keep[6] = plain_alloc(NULL, 1, 72);
  if (mdebug_dump_heap(argv[1]) != 0)
    perror("mdebug_dump_heap");
  for (int i = 0; i < 7; i++)
    free(keep[i]);
  return 0;
}
// OUT: mdebug: Dumping to file: {{.*}}dump.txt
// OUT-NOT: mdebug
// VALID: heap dump OK
// SITES: z 0  sz       40  num    6  bt
// SITES-NEXT: sites {5 [[MAKE:[0-9a-f]+]] malloc {{.*}}heap_dump_sites.c 25 43 make struct%20record} {1 {{[0-9a-f]+}} calloc {{.*}}heap_dump_sites.c 34 13 main struct%20record}
// NOSITES: z 0  sz       72  num    1  bt
// NOSITES-NOT: sites
// REPORT: 1 200 B {{.*}} 5 {{.*}} malloc at {{.*}}heap_dump_sites.c:25:43 (make) as struct record
// REPORT: 72 B {{.*}} 1 {{.*}}
// REPORT: 40 B {{.*}} 1 {{.*}} calloc at {{.*}}heap_dump_sites.c:34:13 (main) as struct record
