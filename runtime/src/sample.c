/* sample.c - which allocations the profiler tracks in full (time, thread,
 * stack), and what it keeps of them: memstat's sampling and filters.
 *
 *   sample_rate=N     each allocation is tracked with probability 1/N
 *   sample_bytes=B    a block of s bytes with probability 1 - exp(-s/B)
 *                     (tcmalloc's and jemalloc's byte sampling); with both,
 *                     a block needs both draws
 *   track_min_size=S  blocks under S bytes are never tracked
 *   track_max_size=S  blocks over S bytes are always tracked
 *   max_tracked=N     at most N tracked blocks live at once
 *   track_enable_on_signal  tracking starts off (SIGRTMAX-12 or
 *                     mdebug_track() turn it on and off)
 * Any of them turns sampling on; without sample_rate or sample_bytes every
 * block the size filters let through is tracked.
 *
 * The fast path (track.h) is a per-thread countdown in allocations and one
 * in bytes; each is drawn at random (geometric, exponential) when it runs
 * out, so every allocation is an independent draw with the probability
 * above whatever the program's allocation pattern (a fixed "every Nth"
 * would alias with a loop that allocates N things in turn) and a sampled
 * block stands for 1/p blocks: the estimates mdebug-report makes are
 * unbiased. A block too small for track_min_size still spends the draw it
 * got, so the probability of every other block is unchanged.
 *
 * A tracked block's time, thread and stack go into a record of a fixed
 * pool (mmap'ed once, max_tracked records, used from the bottom up, so its
 * pages are touched only as records are needed); the block carries
 * MD_MARK_SAMPLED and, in its metadata's free_origin (which is 0 and
 * unused while a block is live), the record's index: the free finds it
 * with no lookup. Freed records go on a lock-free stack (index and an ABA
 * tag in one word). The free of a tracked block is put, with its free
 * stack, into a bounded lock-free queue that snapshot.c drains into the
 * profile (F records); a full queue drops the event and counts it.
 *
 * Runs inside the allocator: never allocates through malloc, takes no lock,
 * never waits. Everything is mapped at init.
 */
#define _GNU_SOURCE
#include <string.h>
#include <time.h>

#include "base.h"
#include "log.h"
#include "options.h"
#include "origin.h"
#include "platform.h"
#include "profiler.h"
#include "record.h"
#include "scan_contract.h"
#include "stacks.h"
#include "track.h"

#define STACK_FRAMES 32
#define DEFAULT_MAX_TRACKED ((size_t)1 << 20)
#define QUEUE_SIZE 16384 /* frees waiting to be written; a power of two */

bool md_sampling;
size_t md_sample_always_above = MD_SIZE_ALL;
__thread struct md_sampler md_sampler_self __attribute__((tls_model("initial-exec")));

static bool configured;
static bool tracking;            /* on/off (signal, API); md_sampling = configured && tracking */
static uint64_t rate, bytes;     /* 0: not sampling by count / by bytes */
static size_t min_size;
static double count_scale;       /* 1 / ln(1 - 1/rate) */

struct record {
  uintptr_t addr; /* the block; 0 while the record is free */
  uint64_t time;
  uint32_t stack, tid;
  uint32_t next; /* on the free stack */
  uint32_t pad;
};
static struct record *pool;
static uint32_t capacity;      /* records 1..capacity (0 names none) */
static uint32_t pool_used = 1; /* records below have been handed out once */
static uint64_t free_top;      /* ABA tag << 32 | index of the top record */
static size_t missed;          /* tracked blocks left out: pool full */
static bool warned;

struct cell {
  uint64_t seq;
  struct md_sample_freed e;
};
static struct cell *queue;
static uint64_t enqueue_pos, dequeue_pos;
static size_t dropped; /* frees of tracked blocks the full queue lost */

/* ---- random draws ---------------------------------------------------------- */

/* ln(x) for x in (0, 1], to about 1e-7: exponent and mantissa, the
 * mantissa by the atanh series. No libm. */
static double ln(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof(bits));
  int e = (int)((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  double m;
  memcpy(&m, &bits, sizeof(m));
  double t = (m - 1) / (m + 1), t2 = t * t;
  double lnm = 2 * t *
               (1 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7 +
                t2 * (1.0 / 9 + t2 * (1.0 / 11 + t2 / 13))))));
  return e * 0.6931471805599453 + lnm;
}

/* ln(1 - p) for p in (0, 1/2], without the cancellation of ln(1 - p). */
static double ln_one_minus(double p) {
  double sum = 0, term = p;
  for (int k = 1; k < 200 && term > 1e-18; k++, term *= p)
    sum += term / k;
  return -sum;
}

static uint64_t next_random(struct md_sampler *s) {
  uint64_t x = s->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  s->rng = x;
  return x * 0x2545f4914f6cdd1dull;
}

/* U in (0, 1]. */
static double uniform(struct md_sampler *s) {
  return ((double)(next_random(s) >> 11) + 1.0) * 0x1.0p-53;
}

/* Allocations up to and including the next sampled one: geometric. */
MD_OFF_BY_DEFAULT static int64_t draw_count(struct md_sampler *s) {
  if (rate <= 1)
    return 1;
  double g = ln(uniform(s)) * count_scale;
  return g >= 4e18 ? INT64_MAX : 1 + (int64_t)g;
}

/* Bytes until the next sampled one: exponential, mean `bytes`. */
MD_OFF_BY_DEFAULT static int64_t draw_bytes(struct md_sampler *s) {
  double g = -ln(uniform(s)) * (double)bytes;
  return g >= 4e18 ? INT64_MAX : (int64_t)g;
}

MD_OFF_BY_DEFAULT static void seed(struct md_sampler *s) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  s->rng = ((uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull) ^
           ((uintptr_t)s * 0xbf58476d1ce4e5b9ull) ^ (uint64_t)ts.tv_sec;
  if (!s->rng)
    s->rng = 0x853c49e6748fea9bull;
}

/* ---- the record pool ----------------------------------------------------- */

static uint32_t take_record(void) {
  uint64_t top = __atomic_load_n(&free_top, __ATOMIC_ACQUIRE);
  while ((uint32_t)top) {
    uint32_t i = (uint32_t)top;
    /* A stale read when another thread took i meanwhile: the tag makes
     * the exchange fail. Records are never unmapped. */
    uint32_t next = __atomic_load_n(&pool[i].next, __ATOMIC_RELAXED);
    uint64_t want = ((top >> 32) + 1) << 32 | next;
    if (__atomic_compare_exchange_n(&free_top, &top, want, true,
                                    __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
      return i;
  }
  uint32_t used = __atomic_load_n(&pool_used, __ATOMIC_RELAXED);
  while (used <= capacity)
    if (__atomic_compare_exchange_n(&pool_used, &used, used + 1, true,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return used;
  return 0;
}

static void give_record(uint32_t i) {
  uint64_t top = __atomic_load_n(&free_top, __ATOMIC_RELAXED);
  uint64_t want;
  do {
    __atomic_store_n(&pool[i].next, (uint32_t)top, __ATOMIC_RELAXED);
    want = ((top >> 32) + 1) << 32 | i;
  } while (!__atomic_compare_exchange_n(&free_top, &top, want, true,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

static uint32_t stack_here(void) {
  uintptr_t pcs[STACK_FRAMES];
  return md_depot_put(pcs, md_unwind(pcs, STACK_FRAMES));
}

static int tid_of(struct md_sampler *s) {
  if (!s->tid)
    s->tid = md_gettid();
  return s->tid;
}

/* ---- the allocation and the free ----------------------------------------- */

MD_OFF_BY_DEFAULT unsigned md_sample_alloc(const struct md_block *b,
                                           size_t size) {
  struct md_sampler *s = &md_sampler_self;
  if (MD_UNLIKELY(!s->rng)) { /* a new thread: its first countdowns */
    seed(s);
    s->allocs_left = rate ? draw_count(s) : INT64_MAX;
    s->bytes_left = bytes ? draw_bytes(s) : INT64_MAX;
    s->allocs_left--;
    s->bytes_left -= (int64_t)size;
  }
  bool by_count = true, by_bytes = true;
  if (rate) {
    by_count = s->allocs_left <= 0;
    if (by_count)
      s->allocs_left = draw_count(s);
  }
  if (bytes) {
    by_bytes = s->bytes_left < 0;
    if (by_bytes)
      s->bytes_left = draw_bytes(s);
  }
  bool tracked = size > md_sample_always_above ||
                 (by_count && by_bytes && size >= min_size);
  if (!tracked)
    return 0;
  uint32_t i = take_record();
  if (!i) {
    __atomic_fetch_add(&missed, 1, __ATOMIC_RELAXED);
    if (!__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
      md_log("mdebug: max_tracked=%u reached: blocks sampled from now on "
             "are not tracked while %u are live (the profile says how many "
             "were left out)", capacity, capacity);
    return 0;
  }
  struct record *r = &pool[i];
  r->time = md_record_now();
  r->tid = (uint32_t)tid_of(s);
  r->stack = stack_here();
  __atomic_store_n(&r->addr, (uintptr_t)b->user, __ATOMIC_RELEASE);
  b->meta->free_origin = i;
  return MD_MARK_SAMPLED;
}

static void enqueue(const struct md_sample_freed *e) {
  uint64_t pos = __atomic_load_n(&enqueue_pos, __ATOMIC_RELAXED);
  struct cell *c;
  for (;;) {
    c = &queue[pos & (QUEUE_SIZE - 1)];
    uint64_t seq = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
    int64_t diff = (int64_t)(seq - pos);
    if (diff == 0) {
      if (__atomic_compare_exchange_n(&enqueue_pos, &pos, pos + 1, true,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        break;
    } else if (diff < 0) {
      __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
      return;
    } else {
      pos = __atomic_load_n(&enqueue_pos, __ATOMIC_RELAXED);
    }
  }
  c->e = *e;
  __atomic_store_n(&c->seq, pos + 1, __ATOMIC_RELEASE);
}

MD_OFF_BY_DEFAULT void md_sample_free(const struct md_block *b,
                                      md_origin_t origin) {
  uint32_t i = b->meta->free_origin;
  if (!i || i >= __atomic_load_n(&pool_used, __ATOMIC_ACQUIRE))
    return; /* not a record of ours: metadata damaged? leave it */
  struct record *r = &pool[i];
  struct md_sample_freed e = {
      .time = md_record_now(),
      .alloc_time = r->time,
      .size = b->size,
      .alloc_id = b->meta->alloc_origin,
      .free_id = md_origin_id(origin),
      .stack = r->stack,
      .free_stack = stack_here(),
      .tid = (uint32_t)tid_of(&md_sampler_self),
  };
  __atomic_store_n(&r->addr, 0, __ATOMIC_RELAXED);
  give_record(i);
  enqueue(&e);
}

/* ---- set-up, switches, and what snapshots read ---------------------------- */

void md_sample_init(void) {
  rate = md_opt.sample_rate;
  bytes = md_opt.sample_bytes;
  min_size = md_opt.track_min_size;
  configured = rate || bytes || min_size || md_opt.track_max_size ||
               md_opt.max_tracked || md_opt.track_enable_on_signal;
  if (!configured)
    return;
  if (!rate && !bytes)
    rate = 1; /* only filters: every block they let through */
  if (rate > 1)
    count_scale = 1.0 / ln_one_minus(1.0 / (double)rate);
  if (md_opt.track_max_size)
    md_sample_always_above = md_opt.track_max_size;
  size_t cap = md_opt.max_tracked ? md_opt.max_tracked : DEFAULT_MAX_TRACKED;
  pool = md_mmap((cap + 1) * sizeof(*pool));
  queue = md_mmap(QUEUE_SIZE * sizeof(*queue));
  if (!pool || !queue) {
    md_log("mdebug: cannot reserve memory for %zu tracked blocks; sampling "
           "is off", cap);
    configured = false;
    return;
  }
  capacity = (uint32_t)cap;
  for (uint64_t k = 0; k < QUEUE_SIZE; k++)
    queue[k].seq = k;
  if (!md_backtrace_enabled()) { /* stacks of tracked blocks */
    md_depot_init();
    md_unwind_refresh_code();
  }
  tracking = !md_opt.track_enable_on_signal;
  __atomic_store_n(&md_sampling, tracking, __ATOMIC_RELEASE);
}

bool md_sample_configured(void) { return configured; }

MD_OFF_BY_DEFAULT void md_sample_params(struct md_sample_params *p) {
  p->rate = configured ? rate : 0;
  p->bytes = configured ? bytes : 0;
  p->min_size = configured ? min_size : 0;
  p->always_above = configured && md_sample_always_above != MD_SIZE_ALL
                        ? md_sample_always_above
                        : 0;
  p->max_tracked = capacity;
  p->missed = __atomic_load_n(&missed, __ATOMIC_RELAXED);
  p->dropped = __atomic_load_n(&dropped, __ATOMIC_RELAXED);
  p->tracking = configured && __atomic_load_n(&tracking, __ATOMIC_RELAXED);
}

/* When tracking was switched, for the profile: the last TOGGLES switches.
 * Written from a signal handler too (SIGRTMAX-12): atomics and
 * clock_gettime only. */
#define TOGGLES 64
static struct {
  uint64_t time;
  bool on;
} toggles[TOGGLES];
static uint64_t toggle_count;

MD_OFF_BY_DEFAULT bool md_sample_set_tracking(bool on) {
  bool was = __atomic_exchange_n(&tracking, on, __ATOMIC_RELAXED);
  __atomic_store_n(&md_sampling, configured && on, __ATOMIC_RELAXED);
  if (was != on && configured) {
    uint64_t k = __atomic_fetch_add(&toggle_count, 1, __ATOMIC_RELAXED);
    toggles[k % TOGGLES].time = md_record_now();
    toggles[k % TOGGLES].on = on;
  }
  return was;
}

uint64_t md_sample_toggles(void) {
  return __atomic_load_n(&toggle_count, __ATOMIC_ACQUIRE);
}

MD_OFF_BY_DEFAULT bool md_sample_toggle_at(uint64_t k, uint64_t *time,
                                           bool *on) {
  if (k >= md_sample_toggles() || md_sample_toggles() - k > TOGGLES)
    return false;
  *time = toggles[k % TOGGLES].time;
  *on = toggles[k % TOGGLES].on;
  return true;
}

MD_OFF_BY_DEFAULT bool md_sample_toggle(void) {
  bool now = !__atomic_load_n(&tracking, __ATOMIC_RELAXED);
  md_sample_set_tracking(now);
  return now;
}

size_t md_sample_live_capacity(void) {
  return __atomic_load_n(&pool_used, __ATOMIC_ACQUIRE);
}

MD_OFF_BY_DEFAULT size_t md_sample_live(struct md_sample_block *out,
                                        size_t max) {
  uint32_t used = __atomic_load_n(&pool_used, __ATOMIC_ACQUIRE);
  size_t n = 0;
  for (uint32_t i = 1; i < used && n < max; i++) {
    uintptr_t addr = __atomic_load_n(&pool[i].addr, __ATOMIC_ACQUIRE);
    struct md_block b;
    uint32_t bits;
    if (!addr || !md_heap_resolve((void *)addr, &b, &bits))
      continue;
    /* The record is this block's only while the block says so. */
    if (MD_BITS_STATE(bits) != MD_STATE_LIVE ||
        !(MD_BITS_MARKS(bits) & MD_MARK_SAMPLED) ||
        __atomic_load_n(&b.meta->free_origin, __ATOMIC_RELAXED) != i)
      continue;
    out[n++] = (struct md_sample_block){addr,
                                        b.size,
                                        pool[i].time,
                                        b.meta->alloc_origin,
                                        pool[i].stack,
                                        pool[i].tid};
  }
  return n;
}

MD_OFF_BY_DEFAULT size_t md_sample_drain(
    void (*fn)(const struct md_sample_freed *e, void *arg), void *arg) {
  size_t n = 0;
  if (!queue)
    return 0;
  for (;;) {
    struct cell *c = &queue[dequeue_pos & (QUEUE_SIZE - 1)];
    if (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) != dequeue_pos + 1)
      return n;
    struct md_sample_freed e = c->e;
    __atomic_store_n(&c->seq, dequeue_pos + QUEUE_SIZE, __ATOMIC_RELEASE);
    dequeue_pos++;
    fn(&e, arg);
    n++;
  }
}

/* The queued frees are the parent's; the live records stand (the child has
 * the blocks); the forking thread's id changed. */
void md_sample_atfork_child(void) {
  md_sampler_self.tid = 0;
  if (!queue)
    return;
  for (uint64_t k = 0; k < QUEUE_SIZE; k++)
    queue[k].seq = k;
  enqueue_pos = dequeue_pos = 0;
}
