/* counters.c - per-site counters, always on: for every origin (a site
 * descriptor, or the caller pc of code that was not instrumented), the
 * allocations, frees and bytes so far, so live blocks and bytes too. The
 * fast paths are inline in track.h; this file owns the rows behind them.
 *
 * Indexed by origin id (origin.c), which every block's metadata already
 * keeps (alloc_origin) and the allocation has just computed: no lookup, no
 * change to the site descriptor, and code that was not instrumented is
 * counted exactly like code that was. Each thread counts into rows of its
 * own, mapped 4096 rows at a time as ids grow, with plain stores: threads
 * never share a counter's cache line and no event pays an atomic
 * read-modify-write (bench/README.md has the measurement against one
 * shared array with atomic adds). md_counts_sum adds up every thread's rows
 * when a snapshot asks. When a thread exits its rows go back to a pool, the
 * next new thread takes them over and carries on counting in them, so no
 * count is ever lost or merged; counts made after a thread's exit handler
 * ran (later destructors, glibc's own clean-up) go to one shared set of
 * rows, with atomic adds.
 *
 * Never allocates through malloc, takes no lock on the fast path.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>

#include "lock.h"
#include "origin.h"
#include "profiler.h"
#include "scan_contract.h"
#include "track.h"

#define CHUNK_ROWS (1u << MD_COUNT_CHUNK_BITS)
#define CHUNKS (MD_ORIGIN_MAX >> MD_COUNT_CHUNK_BITS)

__thread struct md_counts *md_counts_self __attribute__((tls_model("initial-exec")));
/* Set once this thread's rows went back to the pool (it is exiting). */
static __thread bool counts_gone __attribute__((tls_model("initial-exec")));

static struct md_counts *all_counts, *free_counts;
static md_lock_t pool_lock = MD_LOCK_INIT;
static pthread_key_t counts_key;
static bool key_made;
/* Rows of threads past their exit: shared, atomic adds. */
static struct md_counts late;
static md_lock_t late_lock = MD_LOCK_INIT;

static void release(void *arg) {
  struct md_counts *t = arg;
  md_counts_self = NULL;
  counts_gone = true;
  md_lock(&pool_lock);
  t->next_free = free_counts;
  free_counts = t;
  md_unlock(&pool_lock);
}

void md_counters_init(void) {
  key_made = pthread_key_create(&counts_key, release) == 0;
}

/* NULL when the thread is exiting or there is no memory. */
static struct md_counts *acquire(void) {
  if (counts_gone || !key_made)
    return NULL;
  md_lock(&pool_lock);
  struct md_counts *t = free_counts;
  if (t) {
    free_counts = t->next_free;
  } else if ((t = md_mmap(sizeof(*t))) != NULL) {
    t->next_all = all_counts;
    __atomic_store_n(&all_counts, t, __ATOMIC_RELEASE);
  }
  md_unlock(&pool_lock);
  if (!t)
    return NULL;
  /* Set before pthread_setspecific, which may allocate (and come back). */
  md_counts_self = t;
  pthread_setspecific(counts_key, t);
  return t;
}

/* The chunk of rows holding id in t, mapped if needed (only t's owner maps
 * its chunks; `late`'s are mapped under late_lock). */
static struct md_count *chunk_of(struct md_counts *t, uint32_t id) {
  struct md_count **slot = &t->chunks[id >> MD_COUNT_CHUNK_BITS];
  struct md_count *c = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (!c && (c = md_mmap(CHUNK_ROWS * sizeof(*c))) != NULL)
    __atomic_store_n(slot, c, __ATOMIC_RELEASE);
  return c;
}

void md_count_slow(uint32_t id, size_t size, bool alloc) {
  if (id >= MD_ORIGIN_MAX) /* not an id: damaged metadata */
    id = 0;
  struct md_counts *t = md_counts_self ? md_counts_self : acquire();
  struct md_count *c = t ? chunk_of(t, id) : NULL;
  if (c) {
    c += id & (CHUNK_ROWS - 1);
    md_count_add(alloc ? &c->allocs : &c->frees, 1);
    md_count_add(alloc ? &c->bytes : &c->freed, size);
    return;
  }
  md_lock(&late_lock);
  c = chunk_of(&late, id);
  md_unlock(&late_lock);
  if (!c)
    return; /* no memory even for that: the count is lost */
  c += id & (CHUNK_ROWS - 1);
  __atomic_fetch_add(alloc ? &c->allocs : &c->frees, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(alloc ? &c->bytes : &c->freed, size, __ATOMIC_RELAXED);
}

static void add_rows(const struct md_counts *t, struct md_count *out, size_t n) {
  for (size_t k = 0; k * CHUNK_ROWS < n; k++) {
    const struct md_count *c = __atomic_load_n(&t->chunks[k], __ATOMIC_ACQUIRE);
    if (!c)
      continue;
    size_t rows = n - k * CHUNK_ROWS < CHUNK_ROWS ? n - k * CHUNK_ROWS : CHUNK_ROWS;
    struct md_count *o = out + k * CHUNK_ROWS;
    for (size_t i = 0; i < rows; i++) {
      o[i].allocs += __atomic_load_n(&c[i].allocs, __ATOMIC_RELAXED);
      o[i].bytes += __atomic_load_n(&c[i].bytes, __ATOMIC_RELAXED);
      o[i].frees += __atomic_load_n(&c[i].frees, __ATOMIC_RELAXED);
      o[i].freed += __atomic_load_n(&c[i].freed, __ATOMIC_RELAXED);
    }
  }
}

MD_COLD void md_counts_sum(struct md_count *out, size_t n) {
  memset(out, 0, n * sizeof(*out));
  if (n > MD_ORIGIN_MAX)
    n = MD_ORIGIN_MAX;
  /* The list only grows, each entry complete before it is published. */
  for (const struct md_counts *t = __atomic_load_n(&all_counts, __ATOMIC_ACQUIRE);
       t; t = t->next_all)
    add_rows(t, out, n);
  add_rows(&late, out, n);
}

void md_counters_atfork_prepare(void) { md_lock(&pool_lock); }
void md_counters_atfork_parent(void) { md_unlock(&pool_lock); }
/* Only the forking thread lives on: the others' rows (their counts stand,
 * the child inherited their blocks) go back to the pool. */
void md_counters_atfork_child(void) {
  md_lock_reset(&pool_lock);
  md_lock_reset(&late_lock);
  free_counts = NULL;
  for (struct md_counts *t = all_counts; t; t = t->next_all)
    if (t != md_counts_self) {
      t->next_free = free_counts;
      free_counts = t;
    }
}
