// Proves: sample_bytes=B tracks a block of s bytes with probability
// 1 - exp(-s/B), as tcmalloc's byte sampling does: of 100000 live 48-byte
// blocks about 1165 are tracked at sample_bytes=4096, of 100 blocks of
// 64 KiB nearly all (99.9%); mdebug-report's estimates from them are
// unbiased (about 4.8 MB of small blocks); with sample_rate too, a block
// needs both draws. Bounds are 7 standard deviations wide. The clean case:
// sample_rate alone ignores sizes (about as many large as small blocks, in
// proportion).
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_bytes=4096 profile_prefix=%t.d/bytes" %t
// RUN: %python %S/Inputs/profile_blocks.py %t.d/bytes.*.mdprof end 48 925 1405 | %FileCheck %s --check-prefix=SMALL
// RUN: %python %S/Inputs/profile_blocks.py %t.d/bytes.*.mdprof end 65536 97 100 | %FileCheck %s --check-prefix=LARGE
// RUN: %mdebug_report --format=folded --snapshot=end --function=small %t.d/bytes.*.mdprof | %python %S/Inputs/in_range.py '(small)' 3818000 5782000 | %FileCheck %s --check-prefix=ESTIMATE
// RUN: env MDEBUG_OPTIONS="none sample_bytes=4096 sample_rate=2 profile_prefix=%t.d/both" %t
// RUN: %python %S/Inputs/profile_blocks.py %t.d/both.*.mdprof end 48 415 750 | %FileCheck %s --check-prefix=SMALL
// RUN: env MDEBUG_OPTIONS="none sample_rate=100 profile_prefix=%t.d/rate" %t
// RUN: %python %S/Inputs/profile_blocks.py %t.d/rate.*.mdprof end 65536 0 10 | %FileCheck %s --check-prefix=LARGE
#include <mdebug/mdebug.h>
#include <stdlib.h>

#define SMALL 100000
#define LARGE 100
static void *small_blocks[SMALL], *large_blocks[LARGE];

static void small(int i) { small_blocks[i] = malloc(48); }
static void large(int i) { large_blocks[i] = malloc(65536); }

int main(void) {
  for (int i = 0; i < SMALL; i++) {
    small(i);
    if (i % (SMALL / LARGE) == 0)
      large(i / (SMALL / LARGE));
  }
  mdebug_snapshot("end");
  for (int i = 0; i < SMALL; i++)
    free(small_blocks[i]);
  for (int i = 0; i < LARGE; i++)
    free(large_blocks[i]);
  return 0;
}
// SMALL: 48: {{[0-9]+}} blocks, in range
// LARGE: 65536: {{[0-9]+}} blocks, in range
// ESTIMATE: {{[0-9]+}} in range
