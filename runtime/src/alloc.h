/* alloc.h - the checked allocator's common malloc and free, inline, so
 * that entry.c's entry points run them in their own frame (one call from
 * the program, not three). The rest of the allocator is in alloc.c: every
 * way out of these paths is a function there, which does the whole job
 * for any block and any options. The paths keep a block as its class and
 * slot (heap.h) and build a struct md_block only for the calls that want
 * one.
 *
 * Also what the rest of the runtime calls to allocate and free (alloc.c's
 * general paths, first below). Nothing here allocates through malloc,
 * takes a lock or changes errno.
 */
#ifndef MDEBUG_INTERNAL_ALLOC_H
#define MDEBUG_INTERNAL_ALLOC_H

#include <string.h>

#include "base.h"
#include "access.h"
#include "heap.h"
#include "init.h"
#include "lifecycle.h"
#include "quarantine.h"
#include "record.h"
#include "refuse.h"
#include "track.h"

/* ---- alloc.c: the checked allocator every entry point goes through ---- */
void *md_allocate(size_t size, size_t align, enum md_family family, bool zero,
                  unsigned op, md_origin_t origin) MD_HIDDEN;
void md_deallocate(void *ptr, enum md_family family, unsigned op,
                   md_origin_t origin) MD_HIDDEN;
void *md_reallocate(void *ptr, size_t size, unsigned op, md_origin_t origin)
    MD_HIDDEN;
size_t md_usable_size(void *ptr, unsigned op, md_origin_t origin) MD_HIDDEN;
/* posix_memalign / aligned_alloc / memalign / valloc / pvalloc rules. */
int md_posix_memalign(void **out, size_t align, size_t size, unsigned op,
                      md_origin_t origin) MD_HIDDEN;
void *md_memalign(size_t align, size_t size, unsigned op, md_origin_t origin)
    MD_HIDDEN;

static inline bool md_is_power_of_two(size_t x) { return x && !(x & (x - 1)); }

/* The options the inline paths test, as one word: fixed once init is done
 * (no option changes afterwards), computed by the first general path that
 * runs after it (md_alloc_mode_set). MD_MODE_UNSET sends every call the
 * general way until then. */
enum {
  MD_MODE_UNSET = 1,
  MD_MODE_STACKS = 2,     /* stack ids recorded (md_heap.stacks) */
  MD_MODE_FILL_ALLOC = 4, /* fill_on_alloc */
  MD_MODE_GUARDS = 8,     /* front_guard or rear_guard (md_guards_on) */
  MD_MODE_REAR8 = 16,     /* the defaults' geometry: no front guard, an
                             8-byte rear guard all in a primary block's
                             slack (see md_block_guards_intact) */
  MD_MODE_FREE_TRACK = 32, /* free_track */
  MD_MODE_FILL_FREE = 64,  /* fill_on_free */
  MD_MODE_AREAS = 128,     /* slots have guard areas (md_heap.guard: a
                              front guard), which a slot never used or
                              released must have written first */
  MD_MODE_PUSH = 256,      /* free_track without stacks: the inline free
                              ends in the quarantine (with stacks it
                              records the free stack first) */
};
extern uint32_t md_alloc_mode MD_HIDDEN;
void md_alloc_mode_set(void) MD_HIDDEN;
/* A load each time: a test costs no register across the paths' calls. */
static inline uint32_t md_alloc_mode_get(void) {
  return __atomic_load_n(&md_alloc_mode, __ATOMIC_RELAXED);
}

/* The family of each call kind (md_op_family) as a table, for an op read
 * from metadata: one load instead of a switch. */
extern const unsigned char md_op_family_table[64] MD_HIDDEN;

/* The rare calls out of the inline paths, which come back to them. */
#define MD_RARE_CALL __attribute__((cold))

/* ---- alloc.c: the ways out of the inline paths ---------------------------- */
/* No slot from the thread's cache: page_guard's turn (pg: its countdown ran
 * out), else the heap's slow path; then the general allocation. */
void *md_alloc_take_slow(size_t size, size_t align, bool zero, unsigned op,
                         md_origin_t origin, bool pg) MD_HIDDEN;
/* Slot i of class k, just taken from the cache, allocated the general way. */
void *md_alloc_slot(unsigned k, uint32_t i, size_t size, bool zero,
                    unsigned op, md_origin_t origin) MD_HIDDEN;
/* The profiler's sampling chose the new block in slot i of class k; the
 * marks its bits must carry. */
unsigned md_alloc_sampled(unsigned k, uint32_t i, size_t size) MD_HIDDEN
    MD_RARE_CALL;
/* Stacks recorded, nothing else the inline path leaves to alloc.c: slot i
 * of class k gets its allocation stack (and free stack 0), true; false:
 * the general way (md_alloc_slot), which records it. */
bool md_alloc_stack(unsigned k, uint32_t i, size_t size) MD_HIDDEN;
/* The rest of a free with stacks recorded, after its checks, for the
 * inline free's block b (a primary slot at lead 0; sets b->stacks): the
 * free stack, then the quarantine or the hand-back (keeps errno). */
void md_free_stacked(struct md_block *b) MD_HIDDEN;
/* Checked accesses keep an answer for the new block. */
void md_alloc_keep(unsigned k, uint32_t i, size_t size) MD_HIDDEN MD_RARE_CALL;
/* Before init, or while recording. */
void *md_allocate_slow(size_t size, size_t align, enum md_family family,
                       bool zero, unsigned op, md_origin_t origin) MD_HIDDEN;
/* The general free: any pointer, any block, any options; false: p was not a
 * live block (reported, left alone). */
bool md_deallocate_general(void *p, enum md_family family, unsigned op,
                           md_origin_t origin) MD_HIDDEN;
/* Before init, while recording, or while the exit checks run. */
void md_deallocate_slow(void *p, enum md_family family, unsigned op,
                        md_origin_t origin) MD_HIDDEN;
/* The free's checks that found something, and its profiler's hook: slot i
 * of class k at lead 0, size bytes (what md_heap_resolve_plain found). */
void md_free_mismatch(unsigned k, uint32_t i, uint32_t size, uint32_t bits,
                      unsigned op, md_origin_t origin) MD_HIDDEN MD_RARE_CALL;
void md_free_check_guards(unsigned k, uint32_t i, uint32_t size, unsigned op,
                          md_origin_t origin) MD_HIDDEN MD_RARE_CALL;
void md_free_sampled(unsigned k, uint32_t i, uint32_t size,
                     md_origin_t origin) MD_HIDDEN MD_RARE_CALL;
/* A freed block not quarantined: filled (fill_on_free) and given back. */
void md_release_slow(const struct md_block *b) MD_HIDDEN;

/* The common allocation, inline: a slot from the thread's cache (lead 0)
 * that was used before and kept its pages, no fill (a stack, if recorded,
 * in one call: md_alloc_stack): its
 * metadata and (with guards) its slack, kept as (k, i), no struct
 * md_block. Everything else goes to alloc.c, which does the same for
 * any block. */
static MD_ALWAYS_INLINE void *md_alloc_fast(size_t size, size_t align,
                                             bool zero, unsigned op,
                                             md_origin_t origin) {
  if (MD_UNLIKELY(size > md_heap.max_size)) /* max_allocation_size */
    return md_refuse_size(size, align, op, origin); /* reported at the site */
  unsigned k;
  uint32_t i;
  bool pg = MD_UNLIKELY(md_pageguard_countdown-- == 0);
  if (MD_UNLIKELY(pg || !md_heap_take_cached(size, align, &k, &i)))
    return md_alloc_take_slow(size, align, zero, op, origin, pg);
  struct md_meta *m = md_meta_at(k, i);
  if (MD_UNLIKELY(md_alloc_mode_get() &
                  (MD_MODE_UNSET | MD_MODE_STACKS | MD_MODE_FILL_ALLOC)) &&
      !md_alloc_stack(k, i, size))
    return md_alloc_slot(k, i, size, zero, op, origin);
  if (md_alloc_mode_get() & MD_MODE_AREAS) { /* a slot without its areas */
    uint32_t before = m->bits;
    if (MD_UNLIKELY(MD_BITS_STATE(before) == MD_STATE_NEVER ||
                    (MD_BITS_MARKS(before) & MD_MARK_RELEASED)))
      return md_alloc_slot(k, i, size, zero, op, origin);
  }
  unsigned char *user = md_slot_user(k, i);
  uint32_t id = md_origin_id(origin);
  /* alloc_origin and free_origin (0 while live) in one store. */
  uint64_t origins = id;
  __builtin_memcpy(&m->alloc_origin, &origins, sizeof(origins));
  md_count_alloc(id, size); /* the profiler (track.h's md_track_alloc) */
  unsigned marks = 0;
  if (MD_UNLIKELY(__atomic_load_n(&md_sampling, __ATOMIC_RELAXED)) &&
      MD_UNLIKELY(md_sample_countdown(size)))
    marks = md_alloc_sampled(k, i, size);
  size_t usable = size + md_heap.expand;
  if (md_alloc_mode_get() & MD_MODE_GUARDS) { /* the slack: rear guard */
    if (MD_LIKELY(md_alloc_mode_get() & MD_MODE_REAR8)) { /* 8 bytes of slack at least */
      uint64_t w = 0x0101010101010101ull * MD_GUARD_REAR;
      __builtin_memcpy(user + usable, &w, 8);
    } else {
      size_t after = md_heap.classes[k].size - usable;
      md_fill_bytes(user + usable,
                    after < md_heap.rear_guard ? after : md_heap.rear_guard,
                    MD_GUARD_REAR);
    }
  }
  if (zero)
    memset(user, 0, usable);
  /* Last: the block is complete before anything sees it live. */
  md_meta_publish(m, (uint32_t)size,
                  MD_BITS_MAKE(MD_STATE_LIVE, op, 0, md_fork_epoch, marks, 0));
  if (__atomic_load_n(&md_access_used, __ATOMIC_RELAXED))
    md_alloc_keep(k, i, size);
  return user;
}

/* md_allocate (internal.h), inline. */
static MD_ALWAYS_INLINE void *md_allocate_inline(size_t size, size_t align,
                                                 enum md_family family,
                                                 bool zero, unsigned op,
                                                 md_origin_t origin) {
  if (MD_LIKELY(__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) == 2 &&
                !md_recording))
    return md_alloc_fast(size, align, zero, op, origin);
  return md_allocate_slow(size, align, family, zero, op, origin);
}

/* The common free, inline: a live primary block at lead 0 with sound
 * metadata (with stacks recorded, its end is md_free_stacked); the same steps
 * as deallocate_general, with the block kept as (k, i) and a struct md_block
 * built only for the calls that want one. Everything else, a lost race
 * included, goes to deallocate_general, which looks at p afresh. */
static MD_ALWAYS_INLINE bool md_dealloc_fast(void *p, enum md_family family,
                                              unsigned op,
                                              md_origin_t origin) {
  unsigned k;
  uint32_t i, size, bits;
  struct md_meta *m;
  /* First: fewer values are live across its rare call here. */
  uint32_t free_id = md_origin_id(origin);
  if (MD_UNLIKELY((md_alloc_mode_get() & MD_MODE_UNSET) ||
                  !md_heap_resolve_plain(p, &k, &i, &m, &size, &bits)))
    return md_deallocate_general(p, family, op, origin);
  uint32_t freed = MD_BITS_MAKE(
      md_alloc_mode_get() & MD_MODE_FREE_TRACK ? MD_STATE_QUARANTINED : MD_STATE_FREED,
      MD_BITS_ALLOC_OP(bits), op, MD_BITS_EPOCH(bits), 0, 0);
  if (MD_UNLIKELY(!__atomic_compare_exchange_n(&m->bits, &bits, freed, false,
                                               __ATOMIC_ACQ_REL,
                                               __ATOMIC_ACQUIRE)))
    return md_deallocate_general(p, family, op, origin);
  /* The block is ours alone now. */
  if (MD_UNLIKELY(md_op_family_table[MD_BITS_ALLOC_OP(bits)] != family))
    md_free_mismatch(k, i, size, bits, op, origin);
  if (md_alloc_mode_get() & MD_MODE_GUARDS) { /* md_block_guards_intact's, inline */
    size_t usable = size + md_heap.expand;
    uint64_t x;
    if (MD_LIKELY((md_alloc_mode_get() & MD_MODE_REAR8) &&
                  md_heap.classes[k].size - usable >= 8)) {
      __builtin_memcpy(&x, (unsigned char *)p + usable, 8);
      if (MD_UNLIKELY(x != 0x0101010101010101ull * MD_GUARD_REAR))
        md_free_check_guards(k, i, size, op, origin);
    } else {
      md_free_check_guards(k, i, size, op, origin);
    }
  }
  /* md_track_free: the id comes from metadata the program may have
   * overwritten (one past the table would index past this thread's rows). */
  uint32_t id = m->alloc_origin;
  md_count_free(id < MD_ORIGIN_MAX ? id : 0, size);
  if (MD_UNLIKELY(MD_BITS_MARKS(bits) & MD_MARK_SAMPLED))
    md_free_sampled(k, i, size, origin);
  m->free_origin = free_id;
  if (MD_LIKELY(!(md_alloc_mode_get() &
                  (MD_MODE_FREE_TRACK | MD_MODE_FILL_FREE | MD_MODE_STACKS)))) {
    md_heap_give_slot_keep_errno(k, i);
    return true;
  }
  struct md_block b = {.meta = m, .stacks = NULL, .user = p, .size = size,
                       .room = md_heap.classes[k].size, .klass = k,
                       .index = i, .lead = 0};
  if (md_alloc_mode_get() & MD_MODE_PUSH)
    md_quarantine_push(&b); /* fills it; keeps errno */
  else if (md_alloc_mode_get() & MD_MODE_STACKS)
    md_free_stacked(&b); /* its free stack first */
  else
    md_release_slow(&b); /* keeps errno */
  return true;
}

/* md_reallocate (internal.h), with realloc(NULL, n) inline: an allocation
 * (as md_reallocate makes it), unless record_allocs must record it as a
 * realloc. */
static MD_ALWAYS_INLINE void *md_reallocate_inline(void *p, size_t size,
                                                   unsigned op,
                                                   md_origin_t origin) {
  if (!p && MD_LIKELY(__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) == 2 &&
                      !md_recording))
    return md_alloc_fast(size, 0, false, op, origin);
  return md_reallocate(p, size, op, origin);
}

/* md_deallocate (internal.h), inline. */
static MD_ALWAYS_INLINE void md_deallocate_inline(void *p,
                                                  enum md_family family,
                                                  unsigned op,
                                                  md_origin_t origin) {
  if (!p)
    return;
  if (MD_LIKELY(__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) == 2 &&
                !md_recording))
    md_dealloc_fast(p, family, op, origin);
  else
    md_deallocate_slow(p, family, op, origin);
}

#endif
