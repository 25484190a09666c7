/* counters_bench.c - what one per-site counter update costs, in the three
 * designs the profiler weighed (docs/profiling.md), without the allocator
 * around it: each thread runs the allocation hook and the free hook N times
 * on one site (every thread on the same site: the worst case for shared
 * counters, and the common one: threads running the same code allocate at
 * the same sites) and the best of R repetitions is printed, in ns per
 * allocation+free pair.
 *
 *   per-thread  rows of the calling thread, plain adds (what counters.c does)
 *   shared      one row a site, atomic adds, live bytes and peak kept exactly
 *   hybrid      per-thread rows, plus one shared atomic for live bytes and peak
 *
 * usage: counters_bench THREADS N R
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct row { uint64_t allocs, bytes, frees, freed; };
struct shared { uint64_t allocs, bytes, frees, freed, live, peak; };

static struct shared *shared_rows;
static __thread struct row *my_rows;
static long n_events;
static int design;
static volatile uint32_t site = 7; /* volatile: not folded away */

static inline void add(uint64_t *v, uint64_t n) {
  __atomic_store_n(v, __atomic_load_n(v, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void on_alloc(uint32_t id, size_t size) {
  if (design != 1) {
    struct row *r = &my_rows[id];
    add(&r->allocs, 1);
    add(&r->bytes, size);
  }
  if (design == 0)
    return;
  struct shared *s = &shared_rows[id];
  if (design == 1) {
    __atomic_fetch_add(&s->allocs, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&s->bytes, size, __ATOMIC_RELAXED);
  }
  uint64_t live = __atomic_add_fetch(&s->live, size, __ATOMIC_RELAXED);
  if (live > __atomic_load_n(&s->peak, __ATOMIC_RELAXED))
    __atomic_store_n(&s->peak, live, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void on_free(uint32_t id, size_t size) {
  if (design != 1) {
    struct row *r = &my_rows[id];
    add(&r->frees, 1);
    add(&r->freed, size);
  }
  if (design == 0)
    return;
  struct shared *s = &shared_rows[id];
  if (design == 1) {
    __atomic_fetch_add(&s->frees, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&s->freed, size, __ATOMIC_RELAXED);
  }
  __atomic_fetch_sub(&s->live, size, __ATOMIC_RELAXED);
}

static pthread_barrier_t start;

static void *run(void *arg) {
  (void)arg;
  my_rows = calloc(64, sizeof(struct row));
  pthread_barrier_wait(&start);
  for (long i = 0; i < n_events; i++) {
    on_alloc(site, 48);
    on_free(site, 48);
  }
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  n_events = argc > 2 ? atol(argv[2]) : 10000000;
  int reps = argc > 3 ? atoi(argv[3]) : 15;
  shared_rows = aligned_alloc(64, 64 * sizeof(struct shared));
  memset(shared_rows, 0, 64 * sizeof(struct shared));
  const char *names[] = {"per-thread", "shared", "hybrid"};
  printf("threads %d, %ld allocation+free pairs each, best of %d\n", threads,
         n_events, reps);
  double best[3] = {1e9, 1e9, 1e9};
  for (int r = 0; r < reps; r++)
    for (design = 0; design < 3; design++) {
      pthread_t t[16];
      pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
      for (int k = 0; k < threads; k++)
        pthread_create(&t[k], NULL, run, NULL);
      double t0 = now();
      pthread_barrier_wait(&start);
      for (int k = 0; k < threads; k++)
        pthread_join(t[k], NULL);
      double ns = (now() - t0) * 1e9 / (double)n_events;
      if (ns < best[design])
        best[design] = ns;
      pthread_barrier_destroy(&start);
    }
  for (int d = 0; d < 3; d++)
    printf("%-10s %6.1f ns per pair (wall, all threads together)\n", names[d],
           best[d]);
  return 0;
}
