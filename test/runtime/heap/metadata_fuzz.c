// Proves: random words the program writes into a region's metadata array
// (the out-of-band records of its blocks' sizes, states and sites) never
// make the runtime fault: for 200 seeds, eight words land on the records of
// live, freed and unused slots, then the program frees, reallocates and
// asks the usable size of its blocks, and exits through the leak check;
// every run ends with an exit status of its own or mdebug's (0 or 23),
// never a signal (8 of 200 faulted inside the runtime, which trusted a
// record's size and site id). A size past its slot is reported as heap
// metadata corrupted, and the block is taken to be what the slot holds.
// The clean run writes nothing.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %python %S/../../Inputs/seeds.py 1 200 %t 8 | %FileCheck %s --check-prefix=RUNS --implicit-check-not=killed
// RUN: %python %S/../../Inputs/exit_status.py %t size 2>&1 | %FileCheck %s
// RUN: %t 0 1 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1000 };
static unsigned char *blocks[N];

/* The end of the first writable mapping above p's own: the end of the
 * metadata array of p's region (heap.h draws the layout). */
static uint32_t *meta_end_above(void *p, size_t *records) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[512], perms[8];
  uintptr_t lo, hi, found = 0, at = (uintptr_t)p;
  int seen = 0;
  while (!found && fgets(line, sizeof line, f)) {
    if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
      continue;
    if (at >= lo && at < hi)
      seen = 1;
    else if (seen && lo > at && perms[0] == 'r' && perms[1] == 'w')
      found = hi;
  }
  fclose(f);
  *records = found ? (hi - lo) / 16 : 0;
  return (uint32_t *)found;
}

static uint64_t rng;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

int main(int argc, char **argv) {
  if (!strcmp(argv[1], "size")) { /* one record's size, made huge */
    char *p = malloc(3001); /* the only block of that size */
    memset(p, 1, 3001);
    size_t records;
    uint32_t *end = meta_end_above(p, &records);
    for (size_t i = 1; i <= records; i++) /* {origin, origin, size, bits} */
      if (end[-4 * (long)i + 2] == 3001) {
        end[-4 * (long)i + 2] = 0x7ffffff0;
        break;
      }
    printf("usable %d\n", malloc_usable_size(p) >= 3001);
    free(p);
    return 0;
  }
  int words = atoi(argv[1]);
  rng = strtoull(argv[2], 0, 10) * 0x9e3779b97f4a7c15ull + 1;
  for (int i = 0; i < N; i++)
    blocks[i] = malloc(40);
  for (int i = 0; i < N; i += 3) {
    free(blocks[i]);
    blocks[i] = NULL;
  }
  size_t records;
  uint32_t *meta = meta_end_above(blocks[1], &records);
  for (int k = 0; k < words; k++) {
    size_t slot = next() % (N + 16);
    uint32_t v = (uint32_t)next();
    if (next() % 2)
      v &= 0xffff;
    meta[-(long)(slot + 1) * 4 + next() % 4] = v;
  }
  for (int i = 0; i < N; i++) {
    if (!blocks[i])
      continue;
    switch (next() % 4) {
    case 0:
      free(blocks[i]);
      break;
    case 1:
      free(realloc(blocks[i], 100));
      break;
    case 2:
      (void)malloc_usable_size(blocks[i]);
      break;
    }
  }
  return 0;
}
// RUNS-COUNT-200: seed {{[0-9]+}}: exit status {{0|23}}, summary with errors: {{yes|no}}
// CHECK: mdebug: ERROR: heap metadata corrupted in
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} METADATA CORRUPTED
// CHECK-NEXT: its metadata (at 0x{{[0-9a-f]+}}) says size 2147483632; its slot holds at most {{[0-9]+}} bytes: the program wrote into mdebug's metadata array (a wild write?)
// CHECK-NEXT: the block is taken to be {{[0-9]+}} bytes (state 1, bits 0x{{[0-9a-f]+}})
// CHECK: usable 1
// CHECK: mdebug: SUMMARY: 1 error (1 heap metadata corrupted)
// CHECK: exit status: 23
// CLEAN-NOT: mdebug
