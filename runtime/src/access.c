/* access.c - checked heap accesses: the geometry instrumented code reads
 * (__mdebug_access, access.h), the check entry points the pass calls
 * (checks.def), and their reports; the checked C library calls
 * (libc_checks.c) check their ranges with the functions at the end.
 *
 * An access is fine when its bytes lie inside a live block's bytes (its
 * size plus expand_alloc). Instrumented code asks __mdebug_access_lookup for
 * the bytes of the block a pointer points into, once for all the accesses
 * computed from that pointer, and compares each access with them; only an
 * access outside comes here again (__mdebug_access_fail). Calls are checked
 * whole (fine(), with the same lookup). What fails goes on to classify(),
 * which looks at the access's slot, the slots around it and the block of the pointer the
 * address was computed from (its "origin", when the pass knows it), and
 * decides:
 *   - a freed or quarantined block: use after free;
 *   - a guard, a slack, another block than the origin's, an unused slot
 *     near a block: heap buffer overflow, named by the nearest block (or
 *     the origin's), how far past its end or before its start;
 *   - nowhere near any block: an invalid access;
 *   - a live block after all (an origin just past its block, or another
 *     thread allocated it meanwhile): fine.
 * Each instruction (site) reports once. Large blocks (the secondary's
 * arena, page_guard's pool) are checked as small ones are: the range checked
 * is the primary range and the large range after it (heap.h), and a
 * pointer into the large range is looked up through the block's span
 * (lookup_large).
 *
 * Runs inside the program's own code, on any thread, at any time: never
 * allocates, and reads the program's memory only where the checked call
 * itself reads it. The lookup takes no lock; lookup_lock guards only the
 * pool of per-thread caches (a thread's first lookup, and its exit), and
 * a report takes report.c's.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "access.h"
#include "heap.h"
#include "lock.h"
#include "mdebug/access.h"
#include "options.h"
#include "origin.h"
#include "print.h"
#include "report.h"
#include "scan_contract.h"

#define CC_C
#define CC_PRESERVE_MOST __attribute__((preserve_most))
#define CHECK_DECLARE(NAME, SIG, CC, RET, PARAMS)                              \
  MD_EXPORT CC_##CC RET __mdebug_##NAME PARAMS;
#define MDEBUG_CHECK CHECK_DECLARE
#include "mdebug/checks.def"

static const char *const via_names[MD_VIA_COUNT] = {
    NULL,
#define VIA_NAME(NAME, ...) #NAME,
#define MDEBUG_CHECKED VIA_NAME
#define MDEBUG_CHECKED_VA VIA_NAME
#define MDEBUG_VIA VIA_NAME
#include "mdebug/checks.def"
};

/* Each copy of the runtime reads its own geometry (a library's inert copy
 * must never take the active copy's heap for its own); instrumented code
 * binds __mdebug_access, exported, to the active copy's. */
struct mdebug_access_geometry md_access_geo MD_HIDDEN;
extern struct mdebug_access_geometry __mdebug_access
    __attribute__((alias("md_access_geo"), visibility("default")));

_Static_assert(sizeof(struct mdebug_access_site) == 16, "the pass's layout");


/* ---- the check ------------------------------------------------------------ */

/* The block in the slot holding p (any state but never used), if p is in
 * the primary heap and that slot was handed out: md_heap_find's slot, even
 * when p lies in its guard area or slack; in the large range, the block
 * whose span or page_guard slot holds p (md_heap_large_slot). */
static bool slot_block(uintptr_t p, struct md_block *b) {
  if (!md_primary_contains((const void *)p))
    return md_large_contains((const void *)p) &&
           md_heap_large_slot((const void *)p, b);
  md_heap_find((const void *)p, b);
  return b->meta && md_block_state(b) != MD_STATE_NEVER;
}

/* The block a pointer the program computed addresses from belongs to: the
 * one whose bytes hold it, or end just before it (a pointer just past a
 * block may lie in the next slot's guard area). false for a pointer in no
 * block's bytes: a guard, a slack, an unused slot. */
static bool origin_block(uintptr_t p, struct md_block *b) {
  if (!slot_block(p, b))
    return false;
  uintptr_t u = (uintptr_t)b->user;
  if (p >= u)
    return p - u <= md_block_usable(b);
  if (b->index == 0)
    return false;
  md_heap_block_at(b->klass, b->index - 1, b);
  return md_block_state(b) != MD_STATE_NEVER &&
         p == (uintptr_t)b->user + md_block_usable(b);
}

/* ---- the lookup ------------------------------------------------------------ */

/* A lookup answers with an entry (access.h): the block's bytes, and the
 * metadata word (size, state, lead) they were computed from, which
 * instrumented code compares again after a call that may have freed the
 * block, instead of looking it up again. The entry holds while that word is
 * unchanged: a free changes the state, a reuse of the slot for a block of
 * another size its size; a reuse for a block of the same size and kind has
 * the same bounds, and is live.
 *
 * Each thread also keeps its last lookups in a cache of entries, found by
 * the pointer, so the lookup of a pointer the program keeps using (its
 * state, a stack, a table) costs two compares, not the slot's arithmetic.
 * Instrumented code probes the cache itself (its layout is in access.h:
 * __mdebug_access_cache) and calls the lookup only when the probe misses.
 * A thread's cache (64 KiB: 2048 entries; against 1024, on Lua, 27% fewer
 * lookups reach the arithmetic and 3% fewer cycles, as callgrind estimates
 * them; 4096 took 0.4% fewer instructions on alloc_heavy.lua and no less
 * time, for 64 KiB more of every checked thread's resident memory; 16384
 * ran slower) comes from a pool (never malloc: the
 * lookup runs inside any program code), taken at its first lookup and given
 * back when it exits. A fresh one is zero pages, but for its first entry
 * (access.h: an entry of zeros never holds but for p == 0, whose entry
 * must not send the probe to a null word), so that only the pages of
 * entries a thread uses become resident. One given back keeps its entries:
 * each still holds only while its word has its value. Only its thread
 * writes it, in an order that a signal handler's probe in between never
 * takes for a hit (lookup_keep). */
#define LOOKUP_ENTRIES MDEBUG_ACCESS_CACHE_ENTRIES
struct lookup_cache {
  struct mdebug_access_entry e[LOOKUP_ENTRIES];
  struct lookup_cache *next_free;
};
_Static_assert(sizeof(struct lookup_cache) <= 262144, "pages a thread");
_Static_assert(sizeof(struct mdebug_access_entry) == 32, "the pass's stride");

/* Constant answers: a word that never changes (revalidation holds). */
static const uint64_t zero_word;
static const struct mdebug_access_entry not_in_heap = {0, UINT64_MAX,
                                                       &zero_word, 0};
static const struct mdebug_access_entry no_block = {0, 0, &zero_word, 0};
/* Never holds (its word is 0, not 1): the first entry of a cache, the
 * one p == 0 falls in. The others start as zeros, which never hold for
 * another p. The cache of a thread before its first fill is empty_cache:
 * zeros in .bss, its first entry written at start-up (md_access_prepare),
 * so that its 64 KiB are never resident (as initialised data, the
 * kernel's fault-around mapped them all in every program: 64 KiB of
 * each one's peak RSS). */
#define NEVER {0, 0, &zero_word, 1}
static const struct mdebug_access_entry never = NEVER;
static struct lookup_cache empty_cache;

/* Before any instrumented code can run in the process: the runtime's
 * constructor, its initialisation and instrumented modules' constructors
 * call it. Until then a probe of p == 0 would read a null word. */
void md_access_prepare(void) {
  if (!empty_cache.e[0].word)
    empty_cache.e[0] = never;
}
/* This thread's cache's entries; exported (the active copy's) for the
 * probes of instrumented code. */
__thread struct mdebug_access_entry *md_access_cache
    __attribute__((tls_model("initial-exec"), visibility("hidden"))) =
        empty_cache.e;
extern __thread struct mdebug_access_entry *__mdebug_access_cache
    __attribute__((alias("md_access_cache"), visibility("default"),
                   tls_model("initial-exec")));
/* The answer of a thread that has no cache (out of memory, exiting). */
static __thread struct mdebug_access_entry lookup_scratch
    __attribute__((tls_model("initial-exec")));
static __thread bool lookup_gone __attribute__((tls_model("initial-exec")));
static struct lookup_cache *lookup_pool;
static md_lock_t lookup_lock = MD_LOCK_INIT;

/* A thread of the parent may have held it; the caches of the parent's
 * other threads stay where they are (no key destructor runs for them). */
void md_access_atfork_child(void) { md_lock_reset(&lookup_lock); }
static pthread_key_t lookup_key;
static bool lookup_key_made;

static void lookup_release(void *arg) {
  struct lookup_cache *c = arg;
  md_access_cache = empty_cache.e;
  lookup_gone = true;
  md_lock(&lookup_lock);
  c->next_free = lookup_pool;
  lookup_pool = c;
  md_unlock(&lookup_lock);
}

/* Off the fast path, the lookup's functions keep every register (as the
 * lookup promises instrumented code) but those they use themselves: each
 * is preserve_most, the rare calls they make too, and their answers come
 * back in xmm0 (clang 14 restores rax, the result, when it keeps that
 * promise). */
#define LOOKUP_SLOW MD_NOINLINE __attribute__((preserve_most))
static inline mdebug_access_answer answer(const struct mdebug_access_entry *e) {
  return (mdebug_access_answer){(uintptr_t)e, 0};
}
static inline const struct mdebug_access_entry *
entry_of(mdebug_access_answer a) {
  return (const struct mdebug_access_entry *)(uintptr_t)a[0];
}

/* This thread's own cache, taken on its first lookup that fills one. */
static LOOKUP_SLOW mdebug_access_answer lookup_acquire(void) {
  if (lookup_gone || !lookup_key_made)
    return answer(NULL);
  md_lock(&lookup_lock);
  struct lookup_cache *c = lookup_pool;
  if (c)
    lookup_pool = c->next_free;
  md_unlock(&lookup_lock);
  if (!c && !(c = md_mmap(sizeof(*c))))
    return answer(NULL);
  c->e[0] = never; /* the others: zeros, or a dead thread's, which hold */
  __atomic_store_n(&md_access_used, true, __ATOMIC_RELAXED);
  pthread_setspecific(lookup_key, c);
  md_access_cache = c->e;
  return answer(c->e);
}

static inline struct mdebug_access_entry *
lookup_entry_of(struct mdebug_access_entry *cache, uintptr_t p) {
  return &cache[MDEBUG_ACCESS_CACHE_INDEX(p)];
}

/* This thread's cached answer for p, if one holds (access.h's test, the
 * same instrumented code makes inline). */
static MD_ALWAYS_INLINE const struct mdebug_access_entry *
lookup_cached(uintptr_t p) {
  const struct mdebug_access_entry *e = lookup_entry_of(md_access_cache, p);
  if (MD_LIKELY(e->start <= p && p <= e->end &&
                __atomic_load_n(e->word, __ATOMIC_ACQUIRE) == e->value))
    return e;
  return NULL;
}

/* Writes an entry so that it never holds while half written (a signal
 * handler's probe may read it in between): it first waits on a word that
 * is 0 for a value that is not (a live block's word has its state bits
 * set), and its word comes last (an answer outside the heap holds as soon
 * as its value, 0, is written, after its bounds). */
static MD_ALWAYS_INLINE void entry_write(struct mdebug_access_entry *e,
                                         uint64_t start, uint64_t end,
                                         const uint64_t *word, uint64_t value) {
  e->word = &zero_word;
  e->value = 1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  e->start = start;
  e->end = end;
  e->value = value;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  e->word = word;
}

/* Remembers a live block's entry (the thread's cache, or its scratch). */
static MD_ALWAYS_INLINE mdebug_access_answer
lookup_keep(uintptr_t p, uintptr_t user, size_t usable, const uint64_t *word,
            uint64_t value) {
  struct mdebug_access_entry *c = md_access_cache, *e = &lookup_scratch;
  if (MD_UNLIKELY(c == empty_cache.e))
    c = (struct mdebug_access_entry *)entry_of(lookup_acquire());
  if (MD_LIKELY(c != NULL))
    e = lookup_entry_of(c, p);
  entry_write(e, user, user + usable, word, value);
  return answer(e);
}

/* A new block of the primary heap (alloc.c, once it is live): its answer
 * goes into this thread's cache before the program touches the block, so
 * that the first access to a fresh object does not miss. Only in a thread
 * that took a cache (instrumented code ran lookups in it): a program built
 * without checked accesses pays the test of md_access_used alone. */
bool md_access_used;
void md_access_keep_new(const struct md_block *b) {
  if (md_access_cache == empty_cache.e || !b->klass || b->lead)
    return;
  const md_meta_word *word = (const md_meta_word *)&b->meta->size;
  uintptr_t user = (uintptr_t)b->user;
  lookup_keep(user, user, md_block_usable(b), word,
              __atomic_load_n(word, __ATOMIC_RELAXED));
}

/* A pointer before its slot's block (in the guard area: just past the
 * previous block?). */
static LOOKUP_SLOW mdebug_access_answer lookup_before(uintptr_t p) {
  struct md_block b;
  if (!origin_block(p, &b))
    return answer(&no_block);
  const md_meta_word *word = (const md_meta_word *)&b.meta->size;
  uint64_t value = __atomic_load_n(word, __ATOMIC_ACQUIRE);
  if (MD_BITS_STATE(value >> 32) != MD_STATE_LIVE)
    return answer(&no_block);
  return lookup_keep(p, (uintptr_t)b.user, md_block_usable(&b), word, value);
}

/* The lookup's arithmetic, as md_heap_resolve's, for a pointer in the
 * primary heap. Inline in lookup_uncached, the path of every miss of
 * instrumented code's probe (one function's prologue and register saves,
 * not two); lookup_compute for the checked calls. */
static MD_ALWAYS_INLINE mdebug_access_answer
compute(const void *origin) {
  uintptr_t p = (uintptr_t)origin;
  unsigned k = md_region_of(origin);
  uint32_t within;
  if (MD_UNLIKELY(!k))
    return answer(&no_block);
  uint32_t i = md_slot_of(k, origin, &within);
  if (MD_UNLIKELY(i >= md_fresh(k)))
    return answer(&no_block);
  const struct md_meta *m = md_meta_at(k, i);
  const md_meta_word *word = (const md_meta_word *)&m->size;
  uint64_t value = __atomic_load_n(word, __ATOMIC_ACQUIRE);
  uint32_t bits = (uint32_t)(value >> 32);
  size_t lead = md_heap.guard + (size_t)MD_BITS_LEAD(bits) * 16;
  if (MD_UNLIKELY(within < lead))
    return lookup_before(p);
  uintptr_t user = p - within + lead;
  size_t usable = (size_t)(uint32_t)value + md_heap.expand;
  if (MD_UNLIKELY(MD_BITS_STATE(bits) != MD_STATE_LIVE || p - user > usable))
    return answer(&no_block);
  return lookup_keep(p, user, usable, word, value);
}
static LOOKUP_SLOW mdebug_access_answer lookup_compute(const void *origin) {
  return compute(origin);
}

/* A thread's last answers in the large range, apart from its cache: that
 * one holds an answer for the pointer it was asked for (its index is the
 * pointer's), and a program reads a large block (a hash table's buckets,
 * Lua's string table) at pointers that each miss it, each then worth the
 * slot's lookup and two checks of its header (~300 instructions). A hit
 * here costs compares. Written as lookup_keep writes (a signal handler's
 * lookup in between never takes one half written), bounds complemented as
 * md_calls_memo's (thread-local storage is a root of the leak scan). */
#define LARGE_MEMO 4
static __thread struct mdebug_access_entry large_memo[LARGE_MEMO]
    __attribute__((tls_model("initial-exec")));
static __thread unsigned large_memo_next
    __attribute__((tls_model("initial-exec")));

/* A pointer in the large range: the memo's answer when one holds, else the
 * block whose span holds it, found (and remembered in the memo)
 * through the secondary's map or page_guard's slots (no lock; their
 * metadata is never unmapped, so the answer's word stays readable). The
 * word is read before and after the block's bounds: a block freed and its
 * span reused meanwhile gives no answer. */
static LOOKUP_SLOW mdebug_access_answer lookup_large(const void *origin) {
  uintptr_t p = (uintptr_t)origin;
  for (unsigned i = 0; i < LARGE_MEMO; i++) {
    const struct mdebug_access_entry *m = &large_memo[i];
    if (~m->start <= p && p <= ~m->end && m->word &&
        __atomic_load_n(m->word, __ATOMIC_ACQUIRE) == m->value)
      return lookup_keep(p, ~m->start, ~m->end - ~m->start, m->word,
                         m->value);
  }
  struct md_block b;
  if (!md_heap_large_slot(origin, &b)) {
    /* A span the program mapped over is its own for good: not heap. */
    uintptr_t lo, hi;
    if (md_heap_large_given(origin, &lo, &hi))
      return lookup_keep(p, lo, hi - lo, &zero_word, 0);
    return answer(&no_block);
  }
  const md_meta_word *word = (const md_meta_word *)&b.meta->size;
  uint64_t value = __atomic_load_n(word, __ATOMIC_ACQUIRE);
  if (MD_BITS_STATE(value >> 32) != MD_STATE_LIVE)
    return answer(&no_block);
  /* b's bounds may predate value: read them again under it. */
  if (!md_heap_large_slot(origin, &b))
    return answer(&no_block);
  uintptr_t user = (uintptr_t)b.user;
  size_t usable = md_block_usable(&b);
  if (__atomic_load_n(word, __ATOMIC_ACQUIRE) != value ||
      (const md_meta_word *)&b.meta->size != word || p < user ||
      p - user > usable)
    return answer(&no_block);
  unsigned i = large_memo_next++ % LARGE_MEMO;
  entry_write(&large_memo[i], ~user, ~(user + usable), word, value);
  return lookup_keep(p, user, usable, word, value);
}

/* A pointer outside the primary range: in the large range after it, its
 * block (lookup_large); else nothing to check. The answer is then the
 * whole side of the address space it lies on, [0, base) or [base + size,
 * ~0) (size: the primary and the large range), kept in the cache with a
 * word that never changes, so that instrumented code's probe answers it
 * without testing the heap's range itself. Nothing is kept before the heap
 * exists ([0, ~0) would hold heap pointers later). */
static LOOKUP_SLOW mdebug_access_answer lookup_outside(const void *origin) {
  uintptr_t p = (uintptr_t)origin;
  uint64_t base = __atomic_load_n(&md_access_geo.base, __ATOMIC_ACQUIRE);
  if (!base)
    return answer(&not_in_heap);
  uint64_t end = base + md_access_geo.size;
  if (p < base)
    return lookup_keep(p, 0, base, &zero_word, 0);
  if (MD_UNLIKELY(p < end))
    __attribute__((musttail)) return lookup_large(origin);
  return lookup_keep(p, end, UINT64_MAX - end, &zero_word, 0);
}

/* The lookup without the cache: the side of the address space (or a large
 * block) for a pointer outside the primary range, else the arithmetic. */
static LOOKUP_SLOW mdebug_access_answer lookup_uncached(const void *origin) {
  __builtin_prefetch(origin);
  if (!md_primary_contains(origin))
    __attribute__((musttail)) return lookup_outside(origin);
  return compute(origin);
}

/* The lookup of a pointer the program computes addresses from (an array,
 * a structure), before the accesses it bases on it: this thread's cache
 * (an entry of this block, for this or another pointer into it, still
 * valid; or of the side of the address space a pointer outside the heap
 * lies on), then lookup_uncached. Revalidations and the checked calls call
 * it; instrumented code probes the cache itself and calls
 * __mdebug_access_miss when its probe misses. */
mdebug_access_answer __mdebug_access_lookup(const void *origin) {
  const struct mdebug_access_entry *e = lookup_cached((uintptr_t)origin);
  if (MD_LIKELY(e != NULL))
    return answer(e);
  __attribute__((musttail)) return lookup_uncached(origin);
}

/* Called by instrumented code when its own probe of the cache missed:
 * lookup_uncached itself, under its exported name (no second probe, and no
 * extra jump on the miss path). */
extern __typeof__(__mdebug_access_miss) __mdebug_access_miss
    __attribute__((alias("lookup_uncached")));

/* The lookup's answer for p, for the checked calls (they share the
 * thread's cache with instrumented code). */
static MD_ALWAYS_INLINE const struct mdebug_access_entry *
answer_for(uintptr_t p) {
  /* The geometry's range, as instrumented code reads it: the primary and
   * the large range in one compare (nothing before md_access_init). */
  if (p - md_access_geo.base >= md_access_geo.size)
    return &not_in_heap;
  const struct mdebug_access_entry *e = lookup_cached(p);
  if (MD_LIKELY(e != NULL))
    return e;
  if (MD_UNLIKELY(!md_primary_contains((const void *)p)))
    return entry_of(lookup_large((const void *)p));
  return entry_of(lookup_compute((const void *)p));
}

/* Is [a, a + n) in a live block's bytes, or outside the heap's ranges? */
static MD_ALWAYS_INLINE bool fine(uintptr_t a, size_t n) {
  const struct mdebug_access_entry *e = answer_for(a);
  return a - e->start <= e->end - e->start && n <= e->end - a;
}

void md_access_init(void) {
  if (!md_heap.size)
    return; /* no primary heap: nothing is checked */
  lookup_key_made = pthread_key_create(&lookup_key, lookup_release) == 0;
  /* The large range follows the primary one (heap.h). */
  md_access_geo.size = md_heap.size + md_heap.large_size;
  __atomic_store_n(&md_access_geo.base, md_heap.base, __ATOMIC_RELEASE);
}

static bool same_block(const struct md_block *x, const struct md_block *y) {
  return x->meta == y->meta;
}

struct verdict {
  enum md_error kind;
  struct md_block block; /* the block the report is about */
  bool has_block;
  struct md_block landed; /* where the access lands, when another block */
  bool has_landed;
};

static bool is_freed(const struct md_block *b) {
  return md_block_state(b) != MD_STATE_LIVE;
}
/* Does [a, a + n) lie inside b's bytes? */
static bool inside(const struct md_block *b, uintptr_t a, size_t n) {
  uintptr_t u = (uintptr_t)b->user;
  return a >= u && n <= md_block_usable(b) && a - u <= md_block_usable(b) - n;
}

/* The block an access is judged against when its address was computed
 * from origin: the live block whose start origin is (an array indexed past
 * its end into the next block is an overflow of that array). A pointer
 * elsewhere may be a base the program computed on purpose, pointing
 * anywhere: compressors keep `base = source - offset` in a structure
 * (zstd's window, LZ4's) and read the source at `base + index`, and such a
 * base may lie inside another block, or at the start of a freed one. An
 * access from it is judged by where it lands, as AddressSanitizer judges
 * it (inside a freed block: a use after free). */
static bool named_origin(uintptr_t origin, struct md_block *o) {
  return slot_block(origin, o) && origin == (uintptr_t)o->user &&
         !is_freed(o);
}

/* How far from a block an access that lies in no block's slot may be and
 * still be reported as an overflow (or underflow) of that block, as
 * AddressSanitizer names the nearest block of an address in its redzones:
 * a pointer that left its block by more than the guard (Juliet's `data =
 * buffer - 8` when the slot before is unused, a read 1-4 KiB past a small
 * block). Farther, an address is an invalid access, its nearest block
 * named as a hint (describe_nearest). */
#define NEAR_LIMIT ((uintptr_t)64 << 10)

/* Bytes between [a, a + n) and b's bytes, which it does not overlap: from
 * b's end to a, or from a to b's start (where_from's "N bytes before"). */
static uintptr_t gap(const struct md_block *b, uintptr_t a) {
  uintptr_t u = (uintptr_t)b->user, e = u + md_block_usable(b);
  return a >= e ? a - e : u - a;
}

/* Keeps c in *b if it is the nearest so far. */
static void nearer(const struct md_block *c, uintptr_t a, struct md_block *b,
                   uintptr_t *best) {
  uintptr_t d = gap(c, a);
  if (d < *best) {
    *best = d;
    *b = *c;
  }
}

/* The block nearest to a, which lies in no block's slot, within NEAR_LIMIT
 * (any state but never used): in the primary, the nearest used slot of
 * a's region below a and above it; in the large range, the blocks whose
 * spans (or page_guard slots) hold the addresses NEAR_LIMIT away. */
MD_COLD static bool near_block(uintptr_t a, struct md_block *b) {
  struct md_block c;
  uintptr_t best = NEAR_LIMIT + 1;
  if (md_large_contains((const void *)a)) {
    if (md_heap_large_slot((const void *)(a - NEAR_LIMIT), &c))
      nearer(&c, a, b, &best);
    if (md_heap_large_slot((const void *)(a + NEAR_LIMIT), &c))
      nearer(&c, a, b, &best);
    return best <= NEAR_LIMIT;
  }
  unsigned k =
      md_primary_contains((const void *)a) ? md_region_of((const void *)a) : 0;
  uint32_t fresh = k ? md_fresh(k) : 0, within;
  if (!fresh)
    return false;
  const struct md_class_info *ci = &md_heap.classes[k];
  /* The slot a lies in; -1 before slot 0. */
  int64_t i = a < ci->start + ci->first
                  ? -1
                  : (int64_t)md_slot_of(k, (const void *)a, &within);
  int64_t span = (int64_t)(NEAR_LIMIT / ci->stride) + 2;
  for (int64_t j = i < fresh ? i : (int64_t)fresh - 1; j >= 0 && i - j <= span;
       j--) {
    md_heap_block_at(k, (uint32_t)j, &c);
    if (md_block_state(&c) != MD_STATE_NEVER) {
      nearer(&c, a, b, &best);
      break;
    }
  }
  for (int64_t j = i + 1; j < fresh && j - i <= span; j++) {
    md_heap_block_at(k, (uint32_t)j, &c);
    if (md_block_state(&c) != MD_STATE_NEVER) {
      nearer(&c, a, b, &best);
      break;
    }
  }
  return best <= NEAR_LIMIT;
}

/* false: not an error after all. */
MD_COLD static bool classify(uintptr_t a, size_t n, uintptr_t origin,
                             struct verdict *v) {
  struct md_block t, o;
  bool has_t = slot_block(a, &t);
  bool has_o = origin != a && named_origin(origin, &o);
  /* An origin that is both a block's start and the end of the live block
   * before it (no guard between them: `none`) may be either:
   * a program may keep a pointer one past an array and step it back (Lua's
   * lastfree). An access that steps back into that block is its own. */
  if (has_o && has_t && a < origin && !is_freed(&t) && inside(&t, a, n) &&
      origin == (uintptr_t)t.user + md_block_usable(&t))
    return false;
  v->has_block = v->has_landed = false;
  if (has_o && !(has_t && same_block(&o, &t) && inside(&t, a, n))) {
    /* The access left the block its address was computed from. */
    if (has_t && inside(&t, a, n) && !same_block(&o, &t)) {
      v->landed = t;
      v->has_landed = true;
    }
    v->kind = is_freed(&o) ? MD_ERR_USE_AFTER_FREE : MD_ERR_HEAP_OVERFLOW;
    v->block = o;
    v->has_block = true;
    return true;
  }
  if (!has_t) {
    /* In no block's slot: an overflow of the nearest block, if one is
     * near (named as a block's own overflow is, whatever its state: the
     * access is not in its bytes). */
    v->has_block = near_block(a, &v->block);
    v->kind = v->has_block ? MD_ERR_HEAP_OVERFLOW : MD_ERR_INVALID_ACCESS;
    return true;
  }
  if (inside(&t, a, n)) {
    if (!is_freed(&t))
      return false; /* allocated since the inline check looked */
    v->kind = MD_ERR_USE_AFTER_FREE;
    v->block = t;
    v->has_block = true;
    return true;
  }
  /* In t's slot, but not in its bytes: its slack, its lead, or the guard
   * area before it, which is also the end of the previous slot. The block
   * named is the nearer of t and its neighbour on that side. */
  v->block = t;
  v->has_block = true;
  if (a < (uintptr_t)t.user && t.klass && t.index > 0) {
    struct md_block prev;
    md_heap_block_at(t.klass, t.index - 1, &prev);
    uintptr_t prev_end = (uintptr_t)prev.user + md_block_usable(&prev);
    if (md_block_state(&prev) != MD_STATE_NEVER && a >= prev_end &&
        a - prev_end < (uintptr_t)t.user - a)
      v->block = prev; /* nearer the end of the previous block */
  } else if (a >= (uintptr_t)t.user + md_block_usable(&t) && t.klass &&
             t.index + 1 < md_fresh(t.klass)) {
    struct md_block next;
    md_heap_block_at(t.klass, t.index + 1, &next);
    if (md_block_state(&next) != MD_STATE_NEVER &&
        (uintptr_t)next.user - a <
            a - ((uintptr_t)t.user + md_block_usable(&t)))
      v->block = next; /* nearer the start of the next block (its lead) */
  }
  v->kind = is_freed(&v->block) ? MD_ERR_USE_AFTER_FREE : MD_ERR_HEAP_OVERFLOW;
  return true;
}

/* "N bytes after the end of the block" and the like: where [a, a + n)
 * lies from b, in the words crash.c uses for a fault. */
MD_COLD static void where_from(char *buf, size_t size, const struct md_block *b,
                               uintptr_t a, size_t n) {
  uintptr_t start = (uintptr_t)b->user, end = start + md_block_usable(b);
  const char *state = is_freed(b) ? " freed" : "";
  if (a + n <= start)
    md_format(buf, size, "%zu byte%s before the%s block", (size_t)(start - a),
              start - a == 1 ? "" : "s", state);
  else if (a < start)
    md_format(buf, size, "its first %zu byte%s before the%s block",
              (size_t)(start - a), start - a == 1 ? "" : "s", state);
  else if (a >= end)
    md_format(buf, size, "%zu byte%s after the end of the%s block",
              (size_t)(a - end), a - end == 1 ? "" : "s", state);
  else if (a + n > end)
    md_format(buf, size, "its last %zu byte%s after the end of the%s block",
              (size_t)(a + n - end), a + n - end == 1 ? "" : "s", state);
  else
    md_format(buf, size, "%zu byte%s inside the%s block", (size_t)(a - start),
              a - start == 1 ? "" : "s", state);
}

/* Where an address in no block lies from the nearest block, as crash.c
 * says it of a fault there. */
MD_COLD static void describe_nearest(uintptr_t a, const struct md_block *b) {
  if (!b) {
    md_report_line("  %p is in mdebug's heap, outside any block", (void *)a);
    return;
  }
  uintptr_t u = (uintptr_t)b->user, e = u + b->size;
  const char *state = is_freed(b) ? " freed" : "";
  if (a >= u && a < e)
    md_report_line("  %p is %zu byte%s inside a%s block of size %zu at %p",
                   (void *)a, (size_t)(a - u), a - u == 1 ? "" : "s", state,
                   b->size, b->user);
  else
    md_report_line("  %p is %zu byte%s %s a%s block of size %zu at %p, the "
                   "nearest block in mdebug's heap", (void *)a,
                   (size_t)(a < u ? u - a : a - e),
                   (a < u ? u - a : a - e) == 1 ? "" : "s",
                   a < u ? "before" : "after the end of", state, b->size,
                   b->user);
}

MD_COLD static void block_sites(const struct md_block *b, const char *prefix) {
  uint32_t bits = __atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE);
  char what[64];
  md_format(what, sizeof(what), "%sallocated", prefix);
  md_report_origin(what, MD_BITS_ALLOC_OP(bits),
                   md_origin_of(b->meta->alloc_origin));
  if (MD_BITS_STATE(bits) != MD_STATE_LIVE) {
    md_format(what, sizeof(what), "%sfreed", prefix);
    md_report_origin(what, MD_BITS_FREE_OP(bits),
                     md_origin_of(b->meta->free_origin));
  }
}

/* ---- each instruction reports once ----------------------------------------- */

/* Keys: a site's address (4-aligned), plus 1 for its writes, so a call that
 * both reads and writes out of bounds (memcpy) reports each once. */
#define REPORTED_SLOTS 4096
static uintptr_t reported[REPORTED_SLOTS];

/* true the first time `key` asks (and always once the table is full). */
MD_COLD static bool first_report(uintptr_t key) {
  size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 52);
  for (size_t probe = 0; probe < REPORTED_SLOTS; probe++) {
    uintptr_t *slot = &reported[(h + probe) & (REPORTED_SLOTS - 1)];
    uintptr_t seen = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (seen == key)
      return false;
    if (!seen) {
      uintptr_t empty = 0;
      if (__atomic_compare_exchange_n(slot, &empty, key, false,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return true;
      if (empty == key)
        return false;
    }
  }
  return true;
}

/* ---- the report ------------------------------------------------------------ */

MD_COLD static MD_NOINLINE void report(uintptr_t a, size_t n, uint64_t info,
                                       uintptr_t origin,
                                       const struct mdebug_access_site *site) {
  bool write = MDEBUG_ACCESS_INFO_WRITE(info);
  unsigned via = MDEBUG_ACCESS_INFO_VIA(info);
  struct verdict v;
  if (!classify(a, n, origin, &v) ||
      !first_report((uintptr_t)site + write))
    return;
  if (!md_report_begin(v.kind))
    return;
  const char *name = via && via < MD_VIA_COUNT ? via_names[via] : NULL;
  /* The first line as crash.c words a fault of the same kind. */
  const char *what = write ? "write" : "read";
  char where[96];
  struct md_block near;
  bool nearest = false;
  if (v.kind == MD_ERR_USE_AFTER_FREE) {
    md_report_line("+++ ALLOCATION %p SIZE %zu USED AFTER FREE (%s)",
                   v.block.user, v.block.size, what);
  } else if (v.has_block) {
    md_report_line("+++ ALLOCATION %p SIZE %zu %s %s", v.block.user,
                   v.block.size, write ? "WRITTEN" : "READ",
                   a < (uintptr_t)v.block.user ? "BEFORE ITS START"
                                               : "PAST ITS END");
  } else {
    md_report_line("+++ INVALID %s OF SIZE %zu AT %p", write ? "WRITE" : "READ",
                   n, (void *)a);
  }
  if (v.has_block) {
    where_from(where, sizeof(where), &v.block, a, n);
    md_report_line("  %s of size %zu at %p: %s", what, n, (void *)a, where);
  } else {
    nearest = md_heap_near((const void *)a, &near);
    describe_nearest(a, nearest ? &near : NULL);
  }
  char how[96];
  md_format(how, sizeof(how), "%s%s%s", write ? "written" : "read",
            name ? " by " : "", name ? name : "");
  const char *base = (const char *)site; /* the fields are offsets */
  md_report_source(how, base + site->file, base + site->function,
                   site->line, site->column);
  if (v.has_block)
    block_sites(&v.block, "");
  else if (nearest)
    block_sites(&near, "");
  if (v.has_landed) {
    md_report_line("  %p lies inside another %sblock, of size %zu at %p:",
                   (void *)a, is_freed(&v.landed) ? "freed " : "",
                   v.landed.size, v.landed.user);
    block_sites(&v.landed, "  ");
  }
  if (v.has_block)
    md_report_block_stacks(&v.block);
  md_report_current_stack();
  md_report_end();
}

/* ---- loads, stores, intrinsics ------------------------------------------- */

/* A naturally aligned load of 2, 4, 8 or 16 bytes that starts inside a
 * live block (the block its origin names, if any: named_origin) and ends past
 * it: the bytes past the end lie in the same aligned word, which the slot
 * always holds, so the load cannot fault; code that reads a string a word
 * at a time and masks off the tail (Bob Jenkins' lookup3 hash, in json-c
 * and many others, word-at-a-time string routines) does this on purpose.
 * Not reported unless report_partial_loads, as Valgrind's default
 * --partial-loads-ok=yes does not report them. */
static bool partial_load(uintptr_t a, size_t n, uint64_t info,
                         uintptr_t origin) {
  if (md_opt.report_partial_loads || MDEBUG_ACCESS_INFO_WRITE(info) ||
      MDEBUG_ACCESS_INFO_VIA(info) || (n != 2 && n != 4 && n != 8 && n != 16) ||
      (a & (n - 1)))
    return false;
  struct md_block t, o;
  if (!slot_block(a, &t) || is_freed(&t) || !inside(&t, a, 1) ||
      inside(&t, a, n))
    return false;
  return origin == a || !named_origin(origin, &o) || same_block(&o, &t);
}

void __mdebug_access_fail(const void *addr, const void *origin, uint64_t info,
                          const struct mdebug_access_site *site) {
  if (!md_heap_covers(origin))
    return; /* its answer was a side of the heap: nothing is checked */
  size_t n = MDEBUG_ACCESS_INFO_SIZE(info);
  if (partial_load((uintptr_t)addr, n, info, (uintptr_t)origin))
    return;
  report((uintptr_t)addr, n, info, (uintptr_t)origin, site);
}

/* ---- strings ----------------------------------------------------------- */

/* fine(), for a thread that has not taken a cache of lookups. The checked
 * calls of a build without checked accesses (every build checks the C
 * library's less common calls) must not make the thread take one: a
 * thread with a cache pays md_access_keep_new at each allocation, which
 * only instrumented loads and stores repay. They keep the last live block
 * they found in an entry of their own instead, kept as lookup_keep keeps
 * one (a signal handler's check in between never takes it half written):
 * a program that calls strcspn on the same text again and again (SQLite's
 * tokenizer) pays a compare, not the slot's arithmetic. Its bounds are
 * kept complemented: thread-local storage is a root of the leak scan, and
 * a block's address kept there would keep the block reachable. */
__thread struct mdebug_access_entry md_calls_memo
    __attribute__((tls_model("initial-exec")));

/* The end of the block md_calls_memo holds. */
static inline uintptr_t memo_end(void) { return ~md_calls_memo.end; }

static bool fine_uncached(uintptr_t a, size_t n) {
  struct mdebug_access_entry *e = &md_calls_memo;
  if (md_calls_memo_holds(a))
    return n <= ~e->end - a;
  struct md_block b;
  if (!md_heap_covers((const void *)a))
    return true;
  if (!slot_block(a, &b)) {
    uintptr_t lo, hi; /* a span the program mapped over: not heap */
    return md_heap_large_given((const void *)a, &lo, &hi) && n <= hi - a;
  }
  if (is_freed(&b) || !inside(&b, a, 1))
    return false;
  const md_meta_word *word = (const md_meta_word *)&b.meta->size;
  entry_write(e, ~(uintptr_t)b.user, ~((uintptr_t)b.user + md_block_usable(&b)),
              word, __atomic_load_n(word, __ATOMIC_ACQUIRE));
  return inside(&b, a, n);
}

/* How many bytes of s a reader may take before it leaves the block s lies
 * in: SIZE_MAX when s is not in the heap's ranges (nothing to check) or not
 * in a live block's bytes (then the read of s[0] is reported here). */
static MD_ALWAYS_INLINE size_t readable(const char *s, unsigned via,
                                        const struct mdebug_access_site *site) {
  uintptr_t a = (uintptr_t)s;
  if (MD_UNLIKELY(md_access_cache == empty_cache.e)) { /* fine_uncached's */
    if (!md_heap_covers(s))
      return SIZE_MAX;
    if (fine_uncached(a, 1))
      return memo_end() - a;
  } else {
    const struct mdebug_access_entry *e = answer_for(a);
    if (e == &not_in_heap)
      return SIZE_MAX;
    if (a - e->start < e->end - e->start)
      return e->end - a;
  }
  report(a, 1, MDEBUG_ACCESS_INFO(1, false, via), a, site);
  return SIZE_MAX;
}

/* The length of the string at s, at most max, read within its block: a
 * string that runs off the end of its block (before max) is reported as a
 * read of the bytes up to and including the first one past the end; the
 * length then comes from reading on, as the C library will. max 0 reads
 * nothing (strnlen(s, 0), strncpy(d, s, 0): s may be a block of size 0). */
static size_t string_length(const char *s, size_t max, unsigned via,
                            const struct mdebug_access_site *site) {
  if (max == 0)
    return 0;
  size_t room = readable(s, via, site);
  if (room >= max)
    return strnlen(s, max);
  size_t len = strnlen(s, room);
  if (len < room)
    return len;
  report((uintptr_t)s, room + 1, MDEBUG_ACCESS_INFO(room + 1, false, via),
         (uintptr_t)s, site);
  return room + strnlen(s + room, max - room);
}

void __mdebug_check_string(const char *s, size_t max, uint64_t info,
                           const struct mdebug_access_site *site) {
  string_length(s, max, MDEBUG_ACCESS_INFO_VIA(info), site);
}

/* ---- for the checked C library calls (libc_checks.c) ----------------------- */


/* [addr, addr + n) against its block: a memory intrinsic's range
 * (__mdebug_check_range) and a checked call's (md_access_check). */
static MD_NOINLINE bool
check_range_slow(uintptr_t a, size_t n, uint64_t info,
                 const struct mdebug_access_site *site) {
  if (MD_UNLIKELY(md_access_cache == empty_cache.e) ? fine_uncached(a, n)
                                                    : fine(a, n))
    return true;
  report(a, n, info, a, site);
  return false;
}
/* The common case, a range outside the heap or inside the block of a hit
 * in this thread's cache, answered without a frame (no register saved):
 * on Lua these calls are a million, at ~50 instructions each with
 * check_range_slow's frame; anything else takes the slow path, which
 * looks again. */
static MD_ALWAYS_INLINE bool
check_range(const void *addr, size_t n, uint64_t info,
            const struct mdebug_access_site *site) {
  uintptr_t a = (uintptr_t)addr;
  if (!n || a - md_access_geo.base >= md_access_geo.size)
    return true;
  const struct mdebug_access_entry *e = lookup_cached(a);
  if (MD_LIKELY(e != NULL) && n <= e->end - a)
    return true;
  return check_range_slow(a, n, info, site);
}

void __mdebug_check_range(const void *addr, size_t n, uint64_t info,
                          const struct mdebug_access_site *site) {
  check_range(addr, n, info, site);
}

bool md_access_check(const void *addr, size_t n, uint64_t info,
                     const struct mdebug_access_site *site) {
  return check_range(addr, n, info, site);
}

size_t md_access_string_length(const char *s, size_t max, unsigned via,
                               const struct mdebug_access_site *site) {
  return string_length(s, max, via, site);
}
