/* quarantine.c - free_track: the last N freed blocks of each thread are kept,
 * filled with 0xef, and checked when they leave (FIFO) and at exit.
 *
 * One ring per thread, so a free takes no lock and no atomic, and the block
 * a thread evicts is one it freed itself (glibc then frees it into the same
 * arena, without contention). Rings live in mmap'ed memory and are never
 * unmapped: when a thread exits, its ring, still holding its blocks, is
 * handed to the next thread that needs one, so nothing it held is lost or
 * left unchecked. Never allocates through malloc.
 */
#include <pthread.h>

#include "chunk.h"
#include "lock.h"

struct ring {
  struct ring *next_all;  /* every ring ever made, for the exit check */
  struct ring *next_free; /* rings of exited threads, ready for reuse */
  size_t head;            /* next slot to fill (the oldest block) */
  struct md_chunk *slots[];
};

static size_t ring_size;
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
    if (!r)
      md_die("out of memory for the free_track quarantine (mmap failed)");
    r->next_all = all_rings;
    all_rings = r;
  }
  md_unlock(&rings_lock);
  my_ring = r;
  pthread_setspecific(ring_key, r);
  return r;
}

/* Evicts the oldest block first, then fills the new one, then publishes it:
 * the exit check never sees a block in a ring unfilled. */
void md_quarantine_push(struct md_chunk *chunk) {
  struct ring *r = my_ring ? my_ring : acquire_ring();
  size_t i = r->head;
  struct md_chunk *old = r->slots[i];
  if (old) {
    __atomic_store_n(&r->slots[i], NULL, __ATOMIC_RELAXED);
    md_fill_check_freed(old, false);
    md_track_remove(md_chunk_user(old));
    md_release(old);
  }
  md_fill_on_free(chunk);
  __atomic_store_n(&r->slots[i], chunk, __ATOMIC_RELEASE);
  i = i + 1 == ring_size ? 0 : i + 1;
  r->head = i;
  /* The next free evicts this one: its header and first bytes are cold by
   * now (freed ring_size frees ago), so start loading them. */
  struct md_chunk *next = r->slots[i];
  if (next) {
    __builtin_prefetch(next, 1);
    __builtin_prefetch(md_chunk_user(next), 0);
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
      struct md_chunk *c =
          __atomic_load_n(&r->slots[(r->head + k) % ring_size], __ATOMIC_ACQUIRE);
      if (c)
        md_fill_check_freed(c, true);
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
