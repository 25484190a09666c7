/* heap_internal.h - how the heap's own files talk to each other (heap.c,
 * primary.c, tcache.c, secondary.c, pageguard.c). Nothing outside the heap includes it:
 * the rest of the runtime uses heap.h. Nothing here allocates through
 * malloc.
 *
 * heap.c is the facade (as Scudo's combined.h): it alone decides which
 * backend a request or a block belongs to - the primary's classes (through
 * the thread caches), page_guard's pool, or the secondary - and every walk
 * is heap.c calling each backend's own iterator. The backends know only
 * their own blocks and call no other backend (but the secondary's fork
 * hooks, which take page_guard's locks: see secondary.c); runtime/src/
 * layers.txt puts them in the layer below the facade.
 */
#ifndef MDEBUG_HEAP_INTERNAL_H
#define MDEBUG_HEAP_INTERNAL_H

#include "base.h"
#include "heap.h"

/* ---- primary.c ----------------------------------------------------------- */
/* Each class's free slots are shared out among MD_ARENAS arenas; a thread
 * refills from and drains to one of them (its cache's, tcache.c), so
 * threads that each free what they allocate keep apart pages of blocks
 * and metadata. */
#define MD_ARENAS 8
/* Up to n free slots of class k into out (arena's stack first, then its
 * run of fresh ones, other arenas' stacks, a new run); 0 when the region
 * is full or memory cannot be committed. */
size_t md_primary_refill(unsigned k, unsigned arena, uint32_t *out, size_t n)
    MD_HIDDEN;
/* Gives n free slots (state FREED) back to class k's stack of `arena`; may
 * release whole free pages to the OS. */
void md_primary_drain(unsigned k, unsigned arena, const uint32_t *slots,
                      size_t n) MD_HIDDEN;
/* Before a thread first refills from or drains to `arena` (arena 0 needs
 * none). */
void md_primary_claim_arena(unsigned arena) MD_HIDDEN;
size_t md_primary_release_all(void) MD_HIDDEN;
/* Bytes committed, bytes released so far, slots in the shared stacks. */
void md_primary_stats(size_t *committed, size_t *released, size_t *shared)
    MD_HIDDEN;

/* ---- tcache.c: per-thread caches of free slots --------------------------- */
void md_tcache_init(void) MD_HIDDEN;
/* A free slot of class k; false when the class has none and no memory. */
bool md_tcache_take(unsigned k, uint32_t *slot) MD_HIDDEN;
void md_tcache_give(unsigned k, uint32_t slot) MD_HIDDEN;
/* How many free slots of blocks this large a thread may keep. */
uint32_t md_tcache_capacity(size_t block_size) MD_HIDDEN;

/* ---- secondary.c: large blocks, a mapping each --------------------------- */
/* A block of `size` bytes (plus expand_alloc) aligned to align, its
 * metadata zeroed: at the end of its pages, or at their start (at_start,
 * for page_guard_front). */
bool md_secondary_take_at(size_t size, size_t align, bool at_start,
                          struct md_block *b) MD_HIDDEN;
static inline bool md_secondary_take(size_t size, size_t align,
                                     struct md_block *b) {
  return md_secondary_take_at(size, align, false, b);
}
/* Unmaps it, or gives its span to the cache of freed spans or back to the
 * arena (or defers that while a walk runs). */
void md_secondary_give(const struct md_block *b) MD_HIDDEN;
/* The block starting at p (MD_BLOCK), containing p (MD_INTERIOR, only if
 * interior is set: a walk over every large block), or MD_NOT_OURS. */
enum md_lookup md_secondary_find(const void *p, bool interior,
                                 struct md_block *b) MD_HIDDEN;
/* The bytes of its mapping. */
size_t md_secondary_footprint(const struct md_block *b) MD_HIDDEN;
/* free_track: makes a freed block's pages inaccessible and releases them
 * (any access faults) until md_secondary_give. */
void md_secondary_protect(const struct md_block *b) MD_HIDDEN;
/* The bytes of pages a freed block would keep resident while quarantined
 * (md_heap_quarantine_keep), 0 when they go back to the OS. */
size_t md_secondary_keep(const struct md_block *b, size_t budget, bool first)
    MD_HIDDEN;
/* calloc: zeroes a new block whose span held another block's bytes. */
void md_secondary_zero(const struct md_block *b) MD_HIDDEN;
/* Empties the cache of freed spans (malloc_trim); the bytes it held. */
size_t md_secondary_trim(void) MD_HIDDEN;
/* md_heap_mapped_over and md_heap_large_given, for the secondary's spans. */
void md_secondary_mapped_over(uintptr_t lo, uintptr_t hi) MD_HIDDEN;
bool md_secondary_given(const void *p, uintptr_t *lo, uintptr_t *hi) MD_HIDDEN;
void md_secondary_for_each(unsigned states,
                           void (*fn)(const struct md_block *b, void *arg),
                           void *arg) MD_HIDDEN;
/* For the leak scan (md_heap_scan_*): the table's lock, and with it held
 * (the world stopped), its blocks and bytes and a walk that takes no
 * lock. */
void md_secondary_scan_lock(void) MD_HIDDEN;
void md_secondary_scan_unlock(void) MD_HIDDEN;
void md_secondary_scan_count(size_t *blocks, size_t *bytes) MD_HIDDEN;
void md_secondary_scan_each(unsigned states,
                            void (*fn)(const struct md_block *b, void *arg),
                            void *arg) MD_HIDDEN;
/* The front guard bytes of one of its blocks (md_block_front_guard). */
unsigned char *md_secondary_front_guard(const struct md_block *b, size_t *n)
    MD_HIDDEN;
void md_secondary_stats(size_t *blocks, size_t *bytes) MD_HIDDEN;
/* The secondary's arena: [base, base + size) of the large range, reserved
 * and inaccessible (not called when there is none). */
void md_secondary_init(uintptr_t base, size_t size) MD_HIDDEN;
/* The block whose span in the arena holds p (md_heap_large_slot); no lock. */
bool md_secondary_slot(const void *p, struct md_block *b) MD_HIDDEN;
/* The large block whose mapping (inaccessible pages included) holds p; for
 * a fatal signal's handler: gives up rather than wait for the lock. */
bool md_secondary_near(const void *p, struct md_block *b) MD_HIDDEN;

/* ---- pageguard.c: page_guard's pool of guarded slots ---------------------
 * Its blocks are klass 0, as large blocks are; heap.c passes on every
 * call about a block in [md_pageguard_lo, md_pageguard_hi) (both 0 when
 * page_guard is off) here, the rest of klass 0 to secondary.c. */
extern uintptr_t md_pageguard_lo MD_HIDDEN, md_pageguard_hi MD_HIDDEN;
static inline bool md_pageguard_owns(const void *p) {
  return (uintptr_t)p - md_pageguard_lo < md_pageguard_hi - md_pageguard_lo;
}
/* The address space the pool takes (0 when page_guard is off). */
size_t md_pageguard_pool_size(void) MD_HIDDEN;
/* Sets the pool up at `pool` (reserved, inaccessible), or in a mapping of
 * its own when pool is 0. */
void md_pageguard_init(uintptr_t pool) MD_HIDDEN;
/* What md_pageguard_take made of an allocation offered to it: not taken
 * (the primary's or the secondary's as usual), taken, or to be placed at
 * the start of a span of the secondary's (page_guard_front, a block too
 * large for the pool: heap.c asks the secondary). */
enum md_pageguard_choice {
  MD_PAGEGUARD_NO,
  MD_PAGEGUARD_TAKEN,
  MD_PAGEGUARD_LARGE_FRONT,
};
enum md_pageguard_choice md_pageguard_take(size_t size, size_t align,
                                           md_origin_t origin,
                                           struct md_block *b) MD_HIDDEN;
enum md_lookup md_pageguard_find(const void *p, bool interior,
                                 struct md_block *b) MD_HIDDEN;
/* The block nearest to p (this slot's or the one's before), for crash.c. */
bool md_pageguard_near(const void *p, struct md_block *b) MD_HIDDEN;
unsigned char *md_pageguard_front_guard(const struct md_block *b, size_t *n)
    MD_HIDDEN;
size_t md_pageguard_footprint(const struct md_block *b) MD_HIDDEN;
/* Freed: the block's pages become inaccessible and empty. */
void md_pageguard_protect(const struct md_block *b) MD_HIDDEN;
/* Its slot back to its region's free slots (protecting it first). */
void md_pageguard_give(const struct md_block *b) MD_HIDDEN;
void md_pageguard_for_each(unsigned states,
                           void (*fn)(const struct md_block *b, void *arg),
                           void *arg) MD_HIDDEN;
/* Blocks in `states` and the bytes they take. */
void md_pageguard_stats(unsigned states, size_t *blocks, size_t *bytes)
    MD_HIDDEN;

#endif
