/* quarantine.c - free_track: the last N freed blocks are kept, filled with
 * 0xef, and checked when they leave (FIFO) and at exit.
 *
 * A lock-free ring: a free takes the next index with one atomic add and swaps
 * its block in; whatever it swaps out is the oldest block, which that thread
 * checks and releases. The ring itself is mmap'ed. Never allocates.
 */
#include "chunk.h"

static struct md_chunk **ring;
static size_t ring_size, head;

void md_quarantine_init(void) {
  ring_size = md_opt.free_track;
  if (!ring_size)
    return;
  ring = md_mmap(ring_size * sizeof(*ring));
  if (!ring)
    md_die("out of memory for the free_track quarantine (mmap failed)");
}

static void evict(struct md_chunk *c) {
  md_fill_check_freed(c, false);
  md_track_remove(md_chunk_user(c));
  md_release(c);
}

void md_quarantine_push(struct md_chunk *chunk) {
  size_t i = __atomic_fetch_add(&head, 1, __ATOMIC_RELAXED) % ring_size;
  struct md_chunk *old = __atomic_exchange_n(&ring[i], chunk, __ATOMIC_ACQ_REL);
  if (old)
    evict(old);
}

/* At exit: check every block still held, oldest first. They are not
 * released (other threads may still be running), as in malloc debug. */
void md_quarantine_drain(void) {
  if (!ring_size)
    return;
  size_t start = __atomic_load_n(&head, __ATOMIC_RELAXED);
  for (size_t k = 0; k < ring_size; k++) {
    size_t i = (start + k) % ring_size;
    struct md_chunk *c = __atomic_load_n(&ring[i], __ATOMIC_ACQUIRE);
    if (c)
      md_fill_check_freed(c, true);
  }
}
