/* quarantine.c - free_track: the last N freed blocks of each thread are kept,
 * filled with 0xef, and checked when they leave (FIFO) and at exit. A block
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

struct ring {
  struct ring *next_all;  /* every ring ever made, for the exit check */
  struct ring *next_free; /* rings of exited threads, ready for reuse */
  size_t head;            /* the oldest block */
  size_t count;           /* blocks held */
  size_t bytes;           /* their slots' bytes (large blocks: none) */
  size_t large_bytes;     /* pages large blocks keep resident */
  uintptr_t slots[];      /* the blocks (encode); 0: none */
};

/* A ring entry names a block without a lookup on the way out: a slot of
 * the primary heap by class and index, another block by its pointer
 * (shifted, low bit set: a page-guarded block's may be odd) and, in its
 * top 16 bits, the pages it keeps resident (md_heap_quarantine_keep), so
 * that what the ring counts never depends on the block's header. */
#define LARGE_PTR_MASK (((uintptr_t)1 << 48) - 1)
static inline uintptr_t encode(const struct md_block *b, size_t kept) {
  if (b->klass)
    return ((uintptr_t)b->klass << 33) | ((uintptr_t)b->index << 1);
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

static size_t ring_size, byte_cap, large_cap;
static struct ring *all_rings, *free_rings;
static md_lock_t rings_lock = MD_LOCK_INIT;
static pthread_key_t ring_key;
static __thread struct ring *my_ring __attribute__((tls_model("initial-exec")));

/* Thread exit: the ring goes back to the pool with its blocks in it. */
static void release_ring(void *r) {
  struct ring *ring = r;
  md_lock(&rings_lock);
  ring->next_free = free_rings;
  free_rings = ring;
  md_unlock(&rings_lock);
  my_ring = NULL;
}

void md_quarantine_init(void) {
  ring_size = md_opt.free_track;
  byte_cap = md_opt.free_track_bytes;
  large_cap = byte_cap <= MD_SIZE_ALL / LARGE_KEEP_FACTOR
                  ? byte_cap * LARGE_KEEP_FACTOR
                  : MD_SIZE_ALL;
  if (ring_size)
    pthread_key_create(&ring_key, release_ring);
}

static MD_NOINLINE struct ring *acquire_ring(void) {
  int saved_errno = errno;
  md_lock(&rings_lock);
  struct ring *r = free_rings;
  if (r) {
    free_rings = r->next_free;
  } else {
    r = md_mmap(sizeof(struct ring) + ring_size * sizeof(r->slots[0]));
    if (r) {
      r->next_all = all_rings;
      all_rings = r;
    }
  }
  md_unlock(&rings_lock);
  if (r) {
    my_ring = r;
    pthread_setspecific(ring_key, r);
  }
  errno = saved_errno;
  return r;
}

/* Whether a quarantined block's first n bytes still hold the free fill:
 * up to 64 bytes (fill_on_free's default; a smaller block's all) in
 * 16-byte loads inline, the last one overlapping. */
typedef uint64_t fill_vec __attribute__((vector_size(16)));
static MD_ALWAYS_INLINE fill_vec fill_load(const unsigned char *p) {
  fill_vec v;
  __builtin_memcpy(&v, p, sizeof v); /* unaligned, no aliasing question */
  return v;
}
static MD_ALWAYS_INLINE bool fill_intact(const unsigned char *p, size_t n) {
  const uint64_t w8 = 0x0101010101010101ull * MD_FILL_FREE;
  const fill_vec w = {w8, w8};
  if (MD_LIKELY(n == 64)) {
    fill_vec acc = (fill_load(p) ^ w) | (fill_load(p + 16) ^ w) |
                   (fill_load(p + 32) ^ w) | (fill_load(p + 48) ^ w);
    return (acc[0] | acc[1]) == 0;
  }
  if (n >= 16 && n < 64) {
    fill_vec acc = fill_load(p + n - 16) ^ w;
    for (size_t j = 0; j + 16 < n; j += 16)
      acc |= fill_load(p + j) ^ w;
    return (acc[0] | acc[1]) == 0;
  }
  if (n >= 8 && n < 16) {
    uint64_t a, b;
    __builtin_memcpy(&a, p, 8);
    __builtin_memcpy(&b, p + n - 8, 8);
    return ((a ^ w8) | (b ^ w8)) == 0;
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
 * exit). Returns the bytes it held. */
static inline size_t evict(uintptr_t e, bool at_exit) {
  if (MD_UNLIKELY(e & 1))
    return evict_large(e, at_exit);
  unsigned k = (unsigned)(e >> 33);
  uint32_t i = (uint32_t)(e >> 1);
  struct md_meta *m = md_meta_at(k, i);
  uint32_t bits = __atomic_load_n(&m->bits, __ATOMIC_ACQUIRE);
  if (MD_UNLIKELY(MD_BITS_STATE(bits) != MD_STATE_QUARANTINED))
    return 0; /* cannot happen: only this ring held it */
  size_t n = m->size + md_heap.expand;
  if (n > md_opt.fill_on_free)
    n = md_opt.fill_on_free;
  if (MD_UNLIKELY(!fill_intact(md_slot_user(k, i) + MD_BITS_LEAD(bits) * 16, n))) {
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
static void evict_oldest(struct ring *r) {
  size_t i = r->head;
  uintptr_t old = r->slots[i];
  __atomic_store_n(&r->slots[i], 0, __ATOMIC_RELAXED);
  r->head = i + 1 == ring_size ? 0 : i + 1;
  r->count--;
  if (old)
    r->bytes -= evict(old, false);
}

/* Evicts the oldest large block that keeps its pages, leaving a hole (the
 * holes at the head go at once). */
static MD_NOINLINE void evict_oldest_kept(struct ring *r) {
  bool found = false;
  for (size_t k = 0; k < r->count && !found; k++) {
    size_t i = (r->head + k) % ring_size;
    uintptr_t e = r->slots[i];
    if (large_kept(e)) {
      __atomic_store_n(&r->slots[i], 0, __ATOMIC_RELAXED);
      evict(e, false);
      found = true;
    }
  }
  if (!found)
    r->large_bytes = 0; /* cannot happen: the count says one is there */
  while (r->count && !r->slots[r->head]) {
    r->head = r->head + 1 == ring_size ? 0 : r->head + 1;
    r->count--;
  }
}

/* The new entry at the ring's tail, after everything it evicts: the exit
 * check never sees a block in a ring unfilled. */
static inline void publish(struct ring *r, uintptr_t e, size_t held) {
  size_t tail = r->head + r->count;
  if (tail >= ring_size)
    tail -= ring_size;
  __atomic_store_n(&r->slots[tail], e, __ATOMIC_RELEASE);
  r->count++;
  r->bytes += held;
}

/* A large block (or page_guard's): kept and filled, or its pages made
 * inaccessible and given back (md_heap_quarantine_keep decides). Apart
 * from the small blocks' path, which pays nothing for it. */
static MD_NOINLINE void push_large(struct ring *r, const struct md_block *b) {
  size_t kept = md_heap_quarantine_keep(b, large_cap);
  while (kept && r->large_bytes && r->large_bytes + kept > large_cap)
    evict_oldest_kept(r);
  while (r->count >= ring_size || (byte_cap && r->count && r->bytes > byte_cap))
    evict_oldest(r);
  int saved_errno = errno; /* mprotect, madvise */
  if (kept)
    md_fill_on_free(b);
  else
    md_heap_protect_freed(b);
  errno = saved_errno;
  publish(r, encode(b, kept), 0);
  r->large_bytes += kept;
}

/* Evicts the oldest blocks while the ring is full (free_track blocks, or
 * free_track_bytes), then fills the new one, then publishes it. */
void md_quarantine_push(const struct md_block *b) {
  struct ring *r = my_ring ? my_ring : acquire_ring();
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
   * ring_size), so ours may leave one block more than the ring holds; the
   * next push evicts back under the limit. With == the count then grew
   * without bound and stores landed past the ring, in the next mapping. */
  while (r->count >= ring_size ||
         (byte_cap && r->count && r->bytes + held > byte_cap))
    evict_oldest(r);
  if (md_opt.fill_on_free == 64 && md_block_usable(b) >= 64)
    __builtin_memset(b->user, MD_FILL_FREE, 64); /* the default, inline */
  else
    md_fill_on_free(b);
  publish(r, encode(b, 0), held);
  /* The next free may evict the oldest block: its metadata and first
   * bytes are cold by now, so start loading them. */
  uintptr_t next = r->slots[r->head];
  if (next && !(next & 1)) {
    unsigned k = (unsigned)(next >> 33);
    uint32_t i = (uint32_t)(next >> 1);
    __builtin_prefetch(md_meta_at(k, i), 1);
    __builtin_prefetch(md_slot_user(k, i), 0);
  }
}

/* At exit: check every block still held, oldest first in each ring. They are
 * not released (other threads may still be running), as in malloc debug. */
void md_quarantine_drain(void) {
  md_lock(&rings_lock);
  struct ring *rings = all_rings;
  md_unlock(&rings_lock);
  for (struct ring *r = rings; r; r = r->next_all)
    for (size_t k = 0; k < ring_size; k++) {
      uintptr_t e = __atomic_load_n(&r->slots[(r->head + k) % ring_size],
                                    __ATOMIC_ACQUIRE);
      if (e)
        evict(e, true);
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
