/* quarantine.c - free_track: the last N freed blocks of each thread are kept,
 * filled with 0xef, and checked when they leave (FIFO) and at exit; with N
 * of 64 or more, small blocks leave 16 at a time, so up to N + 15 are held
 * (EVICT_BATCH). A block
 * held here is in state QUARANTINED (heap.h); when it leaves, its state
 * becomes FREED and it goes back to the heap, still known as freed until it
 * is reused. A large block up to LARGE_KEEP_FACTOR x free_track_bytes is
 * filled and checked too, and keeps its pages, so that its span is reused
 * without a page fault or a system call when it leaves (a block allocated
 * and freed in a loop otherwise cost a fault and a zeroed page per page,
 * and two mprotects, each time: 60x glibc's time); the ring counts such
 * blocks apart from the small ones, up to that many bytes, evicting the
 * oldest of them first. A larger one (any, without free_track_bytes) has
 * its pages made inaccessible and given back to the OS instead
 * (secondary.c): any access faults.
 *
 * One ring per thread, so a free takes no lock and no atomic, and the block
 * a thread evicts goes to its own cache. Rings live in mmap'ed memory and
 * are never unmapped: when a thread exits, its ring, still holding its
 * blocks, is handed to the next thread that needs one, so nothing it held
 * is lost or left unchecked. Without memory for a ring, blocks are freed
 * without quarantine. Keeps errno (free must); never allocates through
 * malloc.
 */
#include <errno.h>
#include <pthread.h>

#include "base.h"
#include "fill.h"
#include "heap.h"
#include "lock.h"
#include "options.h"
#include "quarantine.h"
#include "scan_contract.h"

/* A ring entry: e names the block (encode; 0: none), user is where its
 * check starts (a small block's pointer, so that leaving needs no geometry
 * and its lines can be prefetched from the entry alone). */
struct slot {
  uintptr_t e;
  unsigned char *user;
};

struct ring {
  struct ring *next_all;  /* every ring ever made, for the exit check */
  struct ring *next_free; /* rings of exited threads, ready for reuse */
  size_t head;            /* the oldest block */
  size_t count;           /* blocks held */
  size_t bytes;           /* their slots' bytes (large blocks: none) */
  size_t large_bytes;     /* pages large blocks keep resident */
  struct slot slots[];    /* the blocks */
};

/* A ring entry names a block without a lookup on the way out: a slot of
 * the primary heap by class and index, with the bytes its fill covers (what
 * leaving checks, at most a class's size: 18 bits) in the top bits; another
 * block by its pointer (shifted, low bit set: a page-guarded block's may be
 * odd) and, in its top 16 bits, the pages it keeps resident
 * (md_heap_quarantine_keep), so that what the ring counts never depends on
 * the block's header. */
#define LARGE_PTR_MASK (((uintptr_t)1 << 48) - 1)
#define SMALL_FILL_SHIFT 41
_Static_assert(MD_PRIMARY_MAX < ((size_t)1 << (64 - SMALL_FILL_SHIFT)),
               "a small block's fill length fits its ring entry");
static inline uintptr_t encode_small(const struct md_block *b, size_t filled) {
  return ((uintptr_t)filled << SMALL_FILL_SHIFT) |
         ((uintptr_t)b->klass << 33) | ((uintptr_t)b->index << 1);
}
static inline uintptr_t encode_large(const struct md_block *b, size_t kept) {
  return (uintptr_t)(kept >> 12) << 48 | (uintptr_t)b->user << 1 | 1;
}
static inline size_t large_kept(uintptr_t e) {
  return (e & 1) ? (size_t)(e >> 48) << 12 : 0;
}

/* Large blocks kept (filled, their pages resident) per thread: this many
 * times free_track_bytes (1 MiB by default). Capacities double (std::string,
 * vectors, growing buffers): a block just past 256 KiB (a 2^18 capacity and
 * a header) is common, and one that went back to the OS at each free cost
 * snappy's tests 5x the page faults of a native run (1.54x its time; 1.15x
 * when kept). */
#define LARGE_KEEP_FACTOR 4

/* Small blocks leave in batches of this many when free_track is at least
 * BATCH_MIN_TRACK: the ring then has room for free_track + EVICT_BATCH - 1
 * blocks and, full, gives back its oldest EVICT_BATCH at once, so that it
 * always holds at least the last free_track freed blocks. A batch's
 * lines are loaded together (their misses overlap, where one at a time
 * each stalled the free that evicted it) and the next batch's are
 * prefetched, EVICT_BATCH frees ahead. */
#define EVICT_BATCH 16
#define BATCH_MIN_TRACK 64

static size_t ring_slots; /* entries a ring has */
static size_t ring_full;  /* at this count, a push evicts first */
static size_t batch;      /* how many blocks a full ring evicts */
static size_t byte_cap, large_cap;
static size_t byte_limit; /* byte_cap, or no limit */
static struct ring *all_rings, *free_rings;
static md_lock_t rings_lock = MD_LOCK_INIT;
static pthread_key_t ring_key;
static __thread struct ring *my_ring __attribute__((tls_model("initial-exec")));

/* Thread exit: the ring goes back to the pool with its blocks in it. */
static void release_ring(void *r) {
  struct ring *ring = r;
  sigset_t old;
  md_lock_signals_blocked(&rings_lock, &old);
  ring->next_free = free_rings;
  free_rings = ring;
  my_ring = NULL;
  md_unlock_signals_restored(&rings_lock, &old);
}

void md_quarantine_init(void) {
  size_t ring_size = md_opt.free_track;
  batch = ring_size >= BATCH_MIN_TRACK ? EVICT_BATCH : 1;
  ring_slots = ring_size + batch - 1;
  ring_full = ring_slots;
  byte_cap = md_opt.free_track_bytes;
  byte_limit = byte_cap ? byte_cap : MD_SIZE_ALL;
  large_cap = byte_cap <= MD_SIZE_ALL / LARGE_KEEP_FACTOR
                  ? byte_cap * LARGE_KEEP_FACTOR
                  : MD_SIZE_ALL;
  if (ring_slots)
    pthread_key_create(&ring_key, release_ring);
}

/* A thread's first free. With signals blocked: a signal handler that
 * frees on this thread while it holds rings_lock (the mmap is a long
 * window) would spin on the lock forever, and one that came in between
 * would get a ring of its own that ours then replaced. */
static MD_NOINLINE struct ring *acquire_ring(void) {
  int saved_errno = errno;
  sigset_t old;
  md_lock_signals_blocked(&rings_lock, &old);
  struct ring *r = my_ring; /* a handler's, before we blocked signals */
  bool fresh = false;
  if (!r) {
    r = free_rings;
    if (r) {
      free_rings = r->next_free;
    } else {
      r = md_mmap(sizeof(struct ring) + ring_slots * sizeof(r->slots[0]));
      if (r) {
        r->next_all = all_rings;
        all_rings = r;
      }
    }
    fresh = r != NULL;
    my_ring = r;
  }
  md_unlock_signals_restored(&rings_lock, &old);
  if (fresh)
    pthread_setspecific(ring_key, r);
  errno = saved_errno;
  return r;
}

/* The free fill of a small block's first n bytes and its check when the
 * block leaves: from 16 to 64 bytes (fill_on_free's default; a smaller
 * block's all) in four 16-byte stores or loads at offsets that depend on n
 * without a branch (0, 16, 32 and n - 16, each no further than n - 16: a
 * branch per length mispredicts on a program of mixed sizes), so that
 * neither touches a line of the block beyond those n bytes. */
typedef uint64_t fill_vec __attribute__((vector_size(16)));
static MD_ALWAYS_INLINE fill_vec fill_load(const unsigned char *p) {
  fill_vec v;
  __builtin_memcpy(&v, p, sizeof v); /* unaligned, no aliasing question */
  return v;
}
static MD_ALWAYS_INLINE void fill_store(unsigned char *p, fill_vec v) {
  __builtin_memcpy(p, &v, sizeof v);
}
#define FILL_W8 (0x0101010101010101ull * MD_FILL_FREE)
static MD_ALWAYS_INLINE size_t at_most(size_t a, size_t b) {
  return a < b ? a : b;
}
static MD_ALWAYS_INLINE void fill_small(unsigned char *p, size_t n) {
  const fill_vec w = {FILL_W8, FILL_W8};
  if (MD_LIKELY(n >= 16 && n <= 64)) {
    size_t last = n - 16;
    fill_store(p, w);
    fill_store(p + at_most(16, last), w);
    fill_store(p + at_most(32, last), w);
    fill_store(p + last, w);
  } else if (n >= 8 && n < 16) {
    uint64_t w8 = FILL_W8;
    __builtin_memcpy(p, &w8, 8);
    __builtin_memcpy(p + n - 8, &w8, 8);
  } else {
    __builtin_memset(p, MD_FILL_FREE, n);
  }
}
static MD_ALWAYS_INLINE bool fill_intact(const unsigned char *p, size_t n) {
  const fill_vec w = {FILL_W8, FILL_W8};
  if (MD_LIKELY(n >= 16 && n <= 64)) {
    size_t last = n - 16;
    fill_vec acc = (fill_load(p) ^ w) | (fill_load(p + at_most(16, last)) ^ w) |
                   (fill_load(p + at_most(32, last)) ^ w) |
                   (fill_load(p + last) ^ w);
    return (acc[0] | acc[1]) == 0;
  }
  if (n >= 8 && n < 16) {
    uint64_t a, b;
    __builtin_memcpy(&a, p, 8);
    __builtin_memcpy(&b, p + n - 8, 8);
    return ((a ^ FILL_W8) | (b ^ FILL_W8)) == 0;
  }
  return md_bytes_all(p, n, MD_FILL_FREE);
}

/* A large block leaving the quarantine: filled (checked as a small block
 * is), or its pages were inaccessible. Out of the pages this thread's ring
 * counts (a ring is evicted from by its own thread, but at exit). */
static MD_NOINLINE size_t evict_large(uintptr_t e, bool at_exit) {
  struct md_block b;
  uint32_t bits;
  if (!at_exit && my_ring)
    my_ring->large_bytes -= large_kept(e);
  if (!md_heap_resolve((void *)((e & LARGE_PTR_MASK) >> 1), &b, &bits) ||
      MD_BITS_STATE(bits) != MD_STATE_QUARANTINED)
    return 0;
  if (large_kept(e))
    md_fill_check_freed(&b, at_exit); /* reports */
  if (at_exit)
    return 0;
  __atomic_store_n(&b.meta->bits, (bits & ~3u) | MD_STATE_FREED,
                   __ATOMIC_RELEASE);
  int saved_errno = errno; /* munmap */
  md_heap_give(&b);
  errno = saved_errno;
  return 0;
}

/* A block leaving the quarantine: checked, then back to the heap (not at
 * exit). Returns the bytes it held. The check reads only the bytes the
 * fill wrote, from the entry (no size, no geometry); the metadata is read
 * for the state it changes. */
static inline size_t evict(struct slot s, bool at_exit) {
  uintptr_t e = s.e;
  if (MD_UNLIKELY(e & 1))
    return evict_large(e, at_exit);
  unsigned k = (unsigned)(e >> 33) & 255u;
  uint32_t i = (uint32_t)(e >> 1);
  struct md_meta *m = md_meta_at(k, i);
  uint32_t bits = __atomic_load_n(&m->bits, __ATOMIC_ACQUIRE);
  if (MD_UNLIKELY(MD_BITS_STATE(bits) != MD_STATE_QUARANTINED))
    return 0; /* cannot happen: only this ring held it */
  if (MD_UNLIKELY(!fill_intact(s.user, e >> SMALL_FILL_SHIFT))) {
    struct md_block b;
    md_heap_block_at(k, i, &b);
    md_fill_check_freed(&b, at_exit); /* reports */
  }
  if (at_exit)
    return 0;
  __atomic_store_n(&m->bits, (bits & ~3u) | MD_STATE_FREED, __ATOMIC_RELEASE);
  md_heap_give_slot_keep_errno(k, i);
  return md_heap.classes[k].size;
}

/* Evicts the oldest block. */
static inline void evict_oldest(struct ring *r) {
  size_t i = r->head;
  struct slot old = r->slots[i];
  __atomic_store_n(&r->slots[i].e, 0, __ATOMIC_RELAXED);
  r->head = i + 1 == ring_slots ? 0 : i + 1;
  r->count--;
  if (old.e)
    r->bytes -= evict(old, false);
}

/* Evicts the oldest large block that keeps its pages, leaving a hole (the
 * holes at the head go at once). */
static MD_NOINLINE void evict_oldest_kept(struct ring *r) {
  bool found = false;
  for (size_t k = 0; k < r->count && !found; k++) {
    size_t i = (r->head + k) % ring_slots;
    struct slot s = r->slots[i];
    if (large_kept(s.e)) {
      __atomic_store_n(&r->slots[i].e, 0, __ATOMIC_RELAXED);
      evict(s, false);
      found = true;
    }
  }
  if (!found)
    r->large_bytes = 0; /* cannot happen: the count says one is there */
  while (r->count && !r->slots[r->head].e) {
    r->head = r->head + 1 == ring_slots ? 0 : r->head + 1;
    r->count--;
  }
}

/* The new entry at the ring's tail, after everything it evicts: the exit
 * check never sees a block in a ring unfilled. */
static inline void publish(struct ring *r, uintptr_t e, unsigned char *user,
                           size_t held) {
  size_t tail = r->head + r->count;
  if (tail >= ring_slots)
    tail -= ring_slots;
  r->slots[tail].user = user;
  __atomic_store_n(&r->slots[tail].e, e, __ATOMIC_RELEASE);
  r->count++;
  r->bytes += held;
}

/* A large block (or page_guard's): kept and filled, or its pages made
 * inaccessible and given back (md_heap_quarantine_keep decides). Apart
 * from the small blocks' path, which pays nothing for it. */
/* A large block is kept against large_cap; the first this ring keeps may
 * go past the bound on freed blocks' resident pages (secondary.c), so
 * that each thread's churned block keeps its pages. */
static MD_NOINLINE void push_large(struct ring *r, const struct md_block *b) {
  size_t kept = md_heap_quarantine_keep(b, large_cap, r->large_bytes == 0);
  /* Refused though small enough: over the bound on freed large blocks'
   * resident pages (secondary.c), which this ring's oldest kept blocks
   * make room in, going back to the heap (its cache) first. */
  while (!kept && r->large_bytes && md_block_usable(b) <= large_cap) {
    evict_oldest_kept(r);
    kept = md_heap_quarantine_keep(b, large_cap, r->large_bytes == 0);
  }
  while (kept && r->large_bytes && r->large_bytes + kept > large_cap)
    evict_oldest_kept(r);
  while (r->count >= ring_full || (byte_cap && r->count && r->bytes > byte_cap))
    evict_oldest(r);
  int saved_errno = errno; /* mprotect, madvise */
  if (kept)
    md_fill_on_free(b);
  else
    md_heap_protect_freed(b);
  errno = saved_errno;
  publish(r, encode_large(b, kept), b->user, 0);
  r->large_bytes += kept;
}

/* Starts loading the lines of the n blocks from entry j on: their
 * metadata and the first of the bytes their check reads (the next line,
 * when the check reaches it, comes with it from the hardware's adjacent
 * line prefetch). A hole's entry names class 0's slot 0: a prefetch of
 * an address nobody reads is harmless. */
static MD_ALWAYS_INLINE void prefetch_entries(const struct ring *r, size_t j,
                                              size_t n) {
  for (size_t k = 0; k < n; k++) {
    struct slot s = r->slots[j];
    if (MD_LIKELY(!(s.e & 1)))
      __builtin_prefetch(md_meta_at((unsigned)(s.e >> 33) & 255u,
                                    (uint32_t)(s.e >> 1)),
                         1);
    __builtin_prefetch(s.user, 0);
    j = j + 1 == ring_slots ? 0 : j + 1;
  }
}

/* A full ring: its oldest `batch` blocks leave (one, on a short ring).
 * The ring's head and count move before each block is checked, as
 * evict_oldest's do, so that a signal handler's push in between finds the
 * ring consistent. */
static MD_NOINLINE void evict_batch(struct ring *r) {
  size_t n = r->count - (ring_full - batch); /* more after a race (push) */
  if (r->count >= n + batch) /* the next batch, batch frees from now */
    prefetch_entries(r, r->head + n < ring_slots ? r->head + n
                                                 : r->head + n - ring_slots,
                     batch);
  size_t h = r->head;
  for (size_t k = 0; k < n; k++) {
    struct slot old = r->slots[h];
    __atomic_store_n(&r->slots[h].e, 0, __ATOMIC_RELAXED);
    h = h + 1 == ring_slots ? 0 : h + 1;
    r->head = h;
    r->count--;
    if (MD_LIKELY(old.e))
      r->bytes -= evict(old, false);
  }
}

/* A small block into the ring, which has room: md_fill_on_free's bytes,
 * inline, then the entry. */
static MD_ALWAYS_INLINE void fill_publish(struct ring *r,
                                          const struct md_block *b,
                                          size_t held) {
  size_t filled = md_block_usable(b);
  if (filled > md_opt.fill_on_free)
    filled = md_opt.fill_on_free;
  if (MD_LIKELY(filled <= 64))
    fill_small(b->user, filled);
  else
    __builtin_memset(b->user, MD_FILL_FREE, filled);
  publish(r, encode_small(b, filled), b->user, held);
}

/* What md_quarantine_push's inline path leaves: a thread's first free, a
 * large block, a full ring (free_track blocks, or free_track_bytes). */
static MD_NOINLINE void push_slow(struct ring *r, const struct md_block *b) {
  if (!r)
    r = acquire_ring();
  if (MD_UNLIKELY(!r)) { /* no memory for a ring: no quarantine */
    int saved_errno = errno;
    md_fill_on_free(b);
    uint32_t bits = __atomic_load_n(&b->meta->bits, __ATOMIC_RELAXED);
    __atomic_store_n(&b->meta->bits, (bits & ~3u) | MD_STATE_FREED,
                     __ATOMIC_RELEASE);
    md_heap_give(b);
    errno = saved_errno;
    return;
  }
  if (MD_UNLIKELY(!b->klass)) {
    push_large(r, b);
    return;
  }
  size_t held = md_heap.classes[b->klass].size;
  /* >=, not ==: a signal handler that frees on this thread may push
   * between this check and our store (its own push leaves count at most
   * ring_full), so ours may leave one block more than the ring holds; the
   * next push evicts back under the limit. With == the count then grew
   * without bound and stores landed past the ring, in the next mapping. */
  if (r->count >= ring_full)
    evict_batch(r);
  while (r->count && r->bytes + held > byte_limit)
    evict_oldest(r);
  fill_publish(r, b, held);
}

/* Evicts the oldest blocks while the ring is full, then fills the new one,
 * then publishes it. The common case, a small block into a ring with
 * room, makes no call. */
void md_quarantine_push(const struct md_block *b) {
  struct ring *r = my_ring;
  unsigned k = b->klass;
  if (MD_UNLIKELY(!r || !k)) {
    push_slow(r, b);
    return;
  }
  size_t held = md_heap.classes[k].size;
  if (MD_UNLIKELY(r->count >= ring_full || r->bytes + held > byte_limit)) {
    push_slow(r, b);
    return;
  }
  fill_publish(r, b, held);
}

/* At exit: check every block still held, oldest first in each ring. They are
 * not released (other threads may still be running), as in malloc debug. */
void md_quarantine_drain(void) {
  md_lock(&rings_lock);
  struct ring *rings = all_rings;
  md_unlock(&rings_lock);
  for (struct ring *r = rings; r; r = r->next_all)
    for (size_t k = 0; k < ring_slots; k++) {
      struct slot *p = &r->slots[(r->head + k) % ring_slots];
      uintptr_t e = __atomic_load_n(&p->e, __ATOMIC_ACQUIRE);
      if (e)
        evict((struct slot){e, p->user}, true);
    }
}

/* In a forked child only the forking thread lives on: the rings of the
 * others become free for reuse (their blocks are still checked at exit). */
void md_quarantine_atfork_child(void) {
  md_lock_reset(&rings_lock);
  free_rings = NULL;
  for (struct ring *r = all_rings; r; r = r->next_all)
    if (r != my_ring) {
      r->next_free = free_rings;
      free_rings = r;
    }
}
