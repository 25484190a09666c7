/* depot_bench.c - what the stack depot costs: ALLOCS allocations (default
 * 1,000,000) from STACKS distinct call stacks (default 1,000), each block
 * freed right away. Every path through L/R below is a distinct stack of
 * ten frames, so with backtrace=16 the depot stores exactly STACKS stacks.
 *
 * Run under mdebug with
 *   MDEBUG_OPTIONS='backtrace=16 log_allocator_stats_on_exit' depot_bench
 * and read the "stack depot:" line; bench/depot.sh does that and the time
 * ratio to a native build.
 */
#include <stdio.h>
#include <stdlib.h>

#define LEVELS 10

static volatile unsigned long sink;

static void *R(unsigned path, int level);

static __attribute__((noinline)) void *L(unsigned path, int level) {
  void *p = level == LEVELS ? malloc(32 + path % 64)
            : (path >> level) & 1 ? L(path, level + 1)
                                  : R(path, level + 1);
  sink += (unsigned long)p; /* keeps the call from being a tail call */
  return p;
}

static __attribute__((noinline)) void *R(unsigned path, int level) {
  void *p = level == LEVELS ? malloc(32 + path % 64)
            : (path >> level) & 1 ? L(path, level + 1)
                                  : R(path, level + 1);
  sink += (unsigned long)p;
  return p;
}

int main(int argc, char **argv) {
  long allocs = argc > 1 ? atol(argv[1]) : 1000000;
  unsigned stacks = argc > 2 ? (unsigned)atoi(argv[2]) : 1000;
  if (stacks < 1 || stacks > (1u << LEVELS)) {
    fprintf(stderr, "depot_bench: STACKS must be 1..%u\n", 1u << LEVELS);
    return 2;
  }
  for (long i = 0; i < allocs; i++)
    free(L((unsigned)(i % stacks), 0));
  return 0;
}
