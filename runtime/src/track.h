/* track.h - the profiler's two hooks on the allocator's paths, inline:
 * md_track_alloc (alloc.c's allocate, once) and md_track_free (alloc.c's
 * deallocate, once); alloc.c's inline paths use their parts
 * (md_count_alloc, md_sample_countdown, md_count_free) directly. They keep the per-site counters (counters.c: always
 * on, a few plain adds into the calling thread's own row, no lock, no
 * atomic read-modify-write, no lookup: the row is the block's origin id)
 * and, when sampling is on, count down to the next sampled allocation
 * (sample.c). With sampling off, the only test is one predictable branch.
 *
 * Nothing here allocates, takes a lock or makes a system call; the slow
 * paths they may call are in counters.c and sample.c.
 */
#ifndef MDEBUG_TRACK_H
#define MDEBUG_TRACK_H

#include "base.h"
#include "heap.h"
#include "origin.h"

/* ---- counters.c: per-site counters, one row per origin id ---------------
 * Each thread counts into rows of its own (so two threads allocating at
 * one site never share a cache line); a snapshot sums the rows of every
 * thread, exited ones included (a thread's rows go back to a pool when it
 * exits and the next thread carries on counting in them). Live blocks and
 * bytes are allocations minus frees, summed: a block freed by another
 * thread than the one that allocated it counts as a free in the freeing
 * thread's row, and the sum is right (uint64 arithmetic wraps). */
struct md_count {
  uint64_t allocs, bytes; /* allocations and their requested bytes */
  uint64_t frees, freed;  /* frees and the bytes they released */
};
#define MD_COUNT_CHUNK_BITS 12 /* rows are mapped 4096 at a time */
struct md_counts {
  struct md_count *chunks[MD_ORIGIN_MAX >> MD_COUNT_CHUNK_BITS];
  struct md_counts *next_all, *next_free;
};
/* This thread's rows; NULL before its first count and after it exits. */
extern __thread struct md_counts *md_counts_self
    __attribute__((tls_model("initial-exec"))) MD_HIDDEN;
/* Counts what the fast path could not: a thread's first count, a new
 * chunk of rows, a thread past its exit. */
void md_count_slow(uint32_t id, size_t size, bool alloc) MD_HIDDEN;

/* Every thread's rows for ids [0, n), summed into out[0..n). */
void md_counts_sum(struct md_count *out, size_t n) MD_HIDDEN;

static inline void md_count_add(uint64_t *v, uint64_t n) {
  /* Only this thread writes *v; a snapshot reads it from another thread. */
  __atomic_store_n(v, __atomic_load_n(v, __ATOMIC_RELAXED) + n,
                   __ATOMIC_RELAXED);
}

/* One allocation (alloc) or free of size bytes at origin id, in this
 * thread's row; alloc is a constant at every call, so each inlined copy
 * keeps one pair of fields. */
static MD_ALWAYS_INLINE void md_count_event(uint32_t id, size_t size,
                                            bool alloc) {
  struct md_counts *t = md_counts_self;
  struct md_count *c;
  if (MD_LIKELY(t != NULL) &&
      MD_LIKELY((c = t->chunks[id >> MD_COUNT_CHUNK_BITS]) != NULL)) {
    c += id & ((1u << MD_COUNT_CHUNK_BITS) - 1);
    md_count_add(alloc ? &c->allocs : &c->frees, 1);
    md_count_add(alloc ? &c->bytes : &c->freed, size);
    return;
  }
  md_count_slow(id, size, alloc);
}

static MD_ALWAYS_INLINE void md_count_alloc(uint32_t id, size_t size) {
  md_count_event(id, size, true);
}

static MD_ALWAYS_INLINE void md_count_free(uint32_t id, size_t size) {
  md_count_event(id, size, false);
}

/* ---- sample.c: which allocations are tracked in full --------------------
 * md_sampling is set while sampling is configured and tracking is on. Each
 * thread counts down allocations (sample_rate) and bytes (sample_bytes) to
 * its next sample, from random starting points; blocks over
 * track_max_size make the fast path look too. */
struct md_sampler {
  int64_t allocs_left, bytes_left; /* 0 in a new thread: the slow path
                                      draws the first countdowns */
  uint64_t rng;
  int tid; /* cached; 0 until known */
};
extern bool md_sampling MD_HIDDEN;
extern size_t md_sample_always_above MD_HIDDEN; /* SIZE_MAX: none */
extern __thread struct md_sampler md_sampler_self
    __attribute__((tls_model("initial-exec"))) MD_HIDDEN;
/* The countdown ran out (or the block is larger than track_max_size):
 * decides, and if the block is tracked records its time, thread and stack
 * in a record of its own, keeps the record's index in the block's
 * free_origin (0 while a block is live, otherwise) and returns
 * MD_MARK_SAMPLED; else 0. */
unsigned md_sample_alloc(const struct md_block *b, size_t size) MD_HIDDEN;
/* A block marked MD_MARK_SAMPLED is being freed (its state already
 * changed; free_origin still holds its record): queues the free for the
 * profile and releases the record. */
void md_sample_free(const struct md_block *b, md_origin_t origin) MD_HIDDEN;

/* What snapshot.c reads (sample.c; the rest is in profiler.h). */
struct md_sample_params {
  uint64_t rate, bytes;  /* 0: not sampling that way */
  uint64_t min_size;     /* track_min_size (0: none) */
  uint64_t always_above; /* track_max_size (0: none) */
  uint64_t max_tracked;  /* the pool's capacity */
  uint64_t missed;       /* tracked blocks left out: the pool was full */
  uint64_t dropped;      /* frees of tracked blocks the queue lost */
  bool tracking;         /* sampling now (not switched off) */
};
void md_sample_params(struct md_sample_params *p) MD_HIDDEN;
/* The switches of tracking so far (numbered from 0), and when switch k
 * happened and to what; false if it is not kept any more (the last 64
 * are). */
uint64_t md_sample_toggles(void) MD_HIDDEN;
bool md_sample_toggle_at(uint64_t k, uint64_t *time, bool *on) MD_HIDDEN;
struct md_sample_block { /* a live tracked block */
  uintptr_t addr;
  uint64_t size, time;
  uint32_t alloc_id, stack, tid;
};
/* An upper bound on the live tracked blocks (records handed out so far). */
size_t md_sample_live_capacity(void) MD_HIDDEN;
/* The live tracked blocks, at most max; a block allocated or freed
 * meanwhile may or may not be in. */
size_t md_sample_live(struct md_sample_block *out, size_t max) MD_HIDDEN;
struct md_sample_freed { /* the free of a tracked block */
  uint64_t time, alloc_time, size;
  uint32_t alloc_id, free_id, stack, free_stack, tid;
};
/* Hands every queued free to fn, oldest first (one caller at a time);
 * returns how many. */
size_t md_sample_drain(void (*fn)(const struct md_sample_freed *e, void *arg),
                       void *arg) MD_HIDDEN;

/* ---- the hooks ----------------------------------------------------------- */

/* While md_sampling: counts an allocation of size bytes down; true when
 * md_sample_alloc must decide about it. */
static MD_ALWAYS_INLINE bool md_sample_countdown(size_t size) {
  struct md_sampler *s = &md_sampler_self;
  int64_t a = --s->allocs_left;
  int64_t n = s->bytes_left -= (int64_t)size;
  return !((a > 0) & (n >= 0) & (size <= md_sample_always_above));
}

/* After the block's origin id and size are in its metadata, before its
 * state is published: returns the marks its `bits` must carry. (alloc.c's
 * inline path does the same with the block as a class and slot.) */
static MD_ALWAYS_INLINE unsigned md_track_alloc(const struct md_block *b,
                                                uint32_t id, size_t size) {
  md_count_alloc(id, size);
  if (MD_LIKELY(!__atomic_load_n(&md_sampling, __ATOMIC_RELAXED)) ||
      MD_LIKELY(!md_sample_countdown(size)))
    return 0;
  return md_sample_alloc(b, size);
}

/* After the free's compare-and-swap, with the bits the block had while
 * live, before free_origin is overwritten. */
static MD_ALWAYS_INLINE void md_track_free(const struct md_block *b,
                                           uint32_t live_bits,
                                           md_origin_t origin) {
  /* The id comes from metadata the program may have overwritten: one past
   * the table would index past this thread's rows. */
  uint32_t id = b->meta->alloc_origin;
  md_count_free(id < MD_ORIGIN_MAX ? id : 0, b->size);
  if (MD_UNLIKELY(MD_BITS_MARKS(live_bits) & MD_MARK_SAMPLED))
    md_sample_free(b, origin);
}

/* realloc in place (alloc.c's resize_in_place), before the metadata
 * changes: the old block's free and the new one's allocation, as a moving
 * realloc counts them; returns the marks the block's bits must carry
 * instead of MD_MARK_SAMPLED. */
static MD_ALWAYS_INLINE unsigned md_track_resize(const struct md_block *b,
                                                 uint32_t live_bits,
                                                 uint32_t id, size_t size,
                                                 md_origin_t origin) {
  md_track_free(b, live_bits, origin);
  return md_track_alloc(b, id, size);
}

#endif
