/* quarantine.c - free_track: the last N freed blocks of each thread are kept,
 * filled with 0xef, and checked when they leave (FIFO) and at exit. A block
 * held here is in state QUARANTINED (heap.h); when it leaves, its state
 * becomes FREED and it goes back to the heap, still known as freed until it
 * is reused. A large block's pages are made inaccessible instead of filled
 * (secondary.c): any access faults.
 *
 * One ring per thread, so a free takes no lock and no atomic, and the block
 * a thread evicts goes to its own cache. Rings live in mmap'ed memory and
 * are never unmapped: when a thread exits, its ring, still holding its
 * blocks, is handed to the next thread that needs one, so nothing it held
 * is lost or left unchecked. Without memory for a ring, blocks are freed
 * without quarantine. Never allocates through malloc.
 */
#include <pthread.h>

#include "heap.h"
#include "lock.h"

struct ring {
  struct ring *next_all;  /* every ring ever made, for the exit check */
  struct ring *next_free; /* rings of exited threads, ready for reuse */
  size_t head;            /* the oldest block */
  size_t count;           /* blocks held */
  size_t bytes;           /* their slots' bytes (large blocks: none, their
                             pages went back to the OS) */
  void *slots[];          /* the blocks' user pointers */
};

static size_t ring_size, byte_cap;
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
  if (ring_size)
    pthread_key_create(&ring_key, release_ring);
}

static MD_NOINLINE struct ring *acquire_ring(void) {
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
  return r;
}

/* A block leaving the quarantine: checked, then back to the heap. Returns
 * the bytes it held. */
static size_t evict(void *user, bool at_exit) {
  struct md_block b;
  uint32_t bits;
  if (!md_heap_resolve(user, &b, &bits) ||
      MD_BITS_STATE(bits) != MD_STATE_QUARANTINED)
    return 0; /* cannot happen: only this ring held it */
  if (b.klass) {
    size_t n = md_block_usable(&b);
    if (n > md_opt.fill_on_free)
      n = md_opt.fill_on_free;
    if (MD_UNLIKELY(!md_bytes_all(b.user, n, MD_FILL_FREE)))
      md_fill_check_freed(&b, at_exit); /* reports */
  }
  if (at_exit)
    return 0;
  __atomic_store_n(&b.meta->bits, (bits & ~3u) | MD_STATE_FREED,
                   __ATOMIC_RELEASE);
  md_heap_give(&b);
  return b.klass ? md_heap.classes[b.klass].size : 0;
}

/* Evicts the oldest block. */
static void evict_oldest(struct ring *r) {
  size_t i = r->head;
  void *old = r->slots[i];
  __atomic_store_n(&r->slots[i], NULL, __ATOMIC_RELAXED);
  r->head = i + 1 == ring_size ? 0 : i + 1;
  r->count--;
  if (old)
    r->bytes -= evict(old, false);
}

/* Evicts the oldest blocks while the ring is full (free_track blocks, or
 * free_track_bytes), then fills the new one, then publishes it: the exit
 * check never sees a block in a ring unfilled. */
void md_quarantine_push(const struct md_block *b) {
  struct ring *r = my_ring ? my_ring : acquire_ring();
  if (MD_UNLIKELY(!r)) { /* no memory for a ring: no quarantine */
    md_fill_on_free(b);
    uint32_t bits = __atomic_load_n(&b->meta->bits, __ATOMIC_RELAXED);
    __atomic_store_n(&b->meta->bits, (bits & ~3u) | MD_STATE_FREED,
                     __ATOMIC_RELEASE);
    md_heap_give(b);
    return;
  }
  size_t held = b->klass ? md_heap.classes[b->klass].size : 0;
  while (r->count == ring_size ||
         (byte_cap && r->count && r->bytes + held > byte_cap))
    evict_oldest(r);
  if (!b->klass) {
    md_heap_protect_freed(b);
  } else if (md_opt.fill_on_free == 64 && md_block_usable(b) >= 64) {
    __builtin_memset(b->user, MD_FILL_FREE, 64); /* the default, inline */
  } else {
    md_fill_on_free(b);
  }
  size_t tail = r->head + r->count;
  if (tail >= ring_size)
    tail -= ring_size;
  __atomic_store_n(&r->slots[tail], b->user, __ATOMIC_RELEASE);
  r->count++;
  r->bytes += held;
  /* The next free may evict the oldest block: its metadata and first
   * bytes are cold by now, so start loading them. */
  void *next = r->slots[r->head];
  if (next)
    __builtin_prefetch(next, 1);
}

/* At exit: check every block still held, oldest first in each ring. They are
 * not released (other threads may still be running), as in malloc debug. */
void md_quarantine_drain(void) {
  md_lock(&rings_lock);
  struct ring *rings = all_rings;
  md_unlock(&rings_lock);
  for (struct ring *r = rings; r; r = r->next_all)
    for (size_t k = 0; k < ring_size; k++) {
      void *p = __atomic_load_n(&r->slots[(r->head + k) % ring_size],
                                __ATOMIC_ACQUIRE);
      if (p)
        evict(p, true);
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
