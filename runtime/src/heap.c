/* heap.c - the heap's geometry and its interface to the rest of the
 * runtime: reserving the range, finding the block of any address, handing
 * blocks out and taking them back (through the thread caches, or the
 * secondary for large ones), walking every block, statistics, fork.
 *
 * The facade (as Scudo's combined.h composes its primary, secondary and
 * GWP-ASan): the one place that decides which backend a request or a
 * block is - the primary's classes (tcache.c, primary.c), page_guard's pool
 * (pageguard.c: md_pageguard_owns) or the secondary (secondary.c) - and the
 * one place that walks them all, each through its own iterator (heap dumps,
 * statistics, the leak scan's md_heap_scan_*). The backends know only their
 * own blocks; the inline fast paths in heap.h dispatch the same way.
 *
 * The layout is drawn in heap.h. The range is 128 regions of 4 GiB (512 GiB
 * of address space), reserved inaccessible at start-up and committed as it
 * is used; the large range follows it in the same reservation (page_guard's
 * pool, then the secondary's arena, 1 TiB), so that checked accesses cover
 * large blocks and still answer a pointer outside the heap with one of two
 * sides of the address space. Under an address-space limit (ulimit -v),
 * where a reservation would count against the limit, nothing is reserved:
 * pages are mapped as they are used, at fixed addresses no mapping held at
 * start-up, and there is no large range. A class whose region is full, or
 * whose memory cannot be committed, borrows slots of the next classes, then
 * falls back to the secondary; when that fails too, the allocation fails
 * with ENOMEM. Running out of memory is never fatal.
 *
 * Never allocates through malloc; takes no lock but in the files it calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base.h"
#include "heap_internal.h"
#include "log.h"
#include "options.h"
#include "platform_linux.h"
#include "stacks.h"

#define PAGE ((size_t)4096)
#define MAX_SHIFT 32 /* offsets inside a region fit in 32 bits */
#define MIN_SHIFT 24 /* 16 MiB regions: 2 GiB in all */
#define SPILL_CLASSES 4 /* a full class borrows from at most this many above */

struct md_heap md_heap = {.max_size = MD_DEFAULT_MAX_ALLOCATION};


/* Is [begin, end) free of mappings (/proc/self/maps, read with raw
 * system calls: this runs inside the first allocation)? */
static bool range_free(uintptr_t begin, uintptr_t end) {
  char buf[4096];
  struct md_maps it;
  struct md_maps_entry m;
  bool free_range = md_maps_open(&it, "/proc/self/maps", buf, sizeof(buf));
  while (free_range && md_maps_next(&it, &m))
    if (m.start < end && m.end > begin)
      free_range = false;
  md_maps_close(&it);
  return free_range;
}

/* Under an address-space limit (ulimit -v) even an inaccessible reservation
 * counts against it: the heap then maps its regions' pages as they are
 * used, at fixed addresses far from where the kernel places mappings. */
static uintptr_t unreserved_base(size_t size) {
  static const uintptr_t candidates[] = {0x600000000000ull, 0x500000000000ull,
                                         0x400000000000ull};
  for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
    if (range_free(candidates[i], candidates[i] + size))
      return candidates[i];
  return 0;
}

/* Regions are 4 GiB apart, so the same place in each maps to the same cache
 * sets: the first slots of every class, and their metadata, would compete
 * for a few sets of L1 and L2 (and of a direct-mapped or weakly hashed L3).
 * Each class's slots and arrays start at a different colour: a multiple of
 * 64 bytes, spread over 256 KiB. */
static uint32_t colour(unsigned k, unsigned step) {
  return (uint32_t)(((size_t)k * step) % (256u << 10)) & ~63u;
}

/* A region: an inaccessible page and the colour, the slots growing up, an
 * inaccessible gap of at least a page, the stack id array, the metadata,
 * the colour again and an inaccessible page. A stray write before the first
 * slot or past the last one faults; it never reaches metadata (this
 * region's or the one below). */
static void set_class(unsigned k, unsigned shift) {
  struct md_class_info *c = &md_heap.classes[k];
  size_t region = (size_t)1 << shift;
  uintptr_t start = md_heap.base + ((uintptr_t)k << shift);
  uint32_t first_colour = colour(k, 41 * 64), meta_colour = colour(k, 67 * 64);
  c->size = (uint32_t)md_class_size(k);
  c->stride = (uint32_t)(md_heap.guard + c->size);
  c->magic = UINT64_MAX / c->stride + 1;
  c->start = start;
  c->first = (uint32_t)PAGE + first_colour;
  size_t per_slot = c->stride + sizeof(struct md_meta) +
                    (md_heap.stacks ? sizeof(struct md_stacks) : 0);
  /* Both arrays are rounded up to pages: leave two for that, the three
   * inaccessible pages, the colours and the guard area after the last
   * slot. */
  size_t fixed = 5 * PAGE + first_colour + meta_colour + md_heap.guard;
  size_t slots = region > fixed ? (region - fixed) / per_slot : 0;
  if (slots > UINT32_MAX - 1)
    slots = UINT32_MAX - 1;
  c->max_slots = (uint32_t)slots;
  c->meta_end = start + region - PAGE - meta_colour;
  c->stacks_end = (c->meta_end - slots * sizeof(struct md_meta)) & ~(uintptr_t)(PAGE - 1);
  c->cache_max = md_tcache_capacity(c->size);
}

bool md_heap_init(void) {
  md_heap.max_size = md_opt.max_allocation_size ? md_opt.max_allocation_size
                                                : MD_DEFAULT_MAX_ALLOCATION;
  size_t front = md_opt.front_guard, rear = md_opt.rear_guard;
  md_heap.guard = (front + MD_MIN_ALIGN - 1) & ~(size_t)(MD_MIN_ALIGN - 1);
  md_heap.front_guard = front;
  md_heap.rear_guard = rear;
  md_heap.expand = md_opt.expand_alloc;
  md_heap.extra = md_heap.expand + (rear > md_heap.guard ? rear - md_heap.guard : 0);
  md_heap.stacks = md_backtrace_enabled();
  md_tcache_init();
  size_t pool = md_pageguard_pool_size(), large = 0;
  struct rlimit rl;
  unsigned shift = MAX_SHIFT;
  void *base = MAP_FAILED;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    uintptr_t fixed = unreserved_base((size_t)MD_REGION_COUNT << shift);
    if (fixed)
      base = (void *)fixed;
  } else {
    /* Smaller regions where less address space is to be had (Valgrind
     * offers well under 512 GiB). At each size, the large range too if it
     * fits: page_guard's pool and an arena for large blocks twice the
     * primary range (address space only: a block's span takes what it
     * maps, and spans are reused). */
    for (; shift >= MIN_SHIFT && base == MAP_FAILED; shift--) {
      size_t primary = (size_t)MD_REGION_COUNT << shift;
      large = pool + 2 * primary;
      base = mmap(NULL, primary + large, PROT_NONE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED) {
        large = 0;
        base = mmap(NULL, primary, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      }
    }
    shift++;
    md_heap.reserved = base != MAP_FAILED;
  }
  if (base == MAP_FAILED) {
    md_pageguard_init(0);
    /* Every class then falls back to the secondary. */
    md_log("mdebug: cannot find address space for the heap; every block "
           "gets a mapping of its own (slow)");
    return false;
  }
  md_heap.base = (uintptr_t)base;
  md_heap.region_shift = shift;
  md_heap.size = (size_t)MD_REGION_COUNT << shift;
  md_heap.large_base = md_heap.base + md_heap.size;
  md_pageguard_init(large ? md_heap.large_base : 0);
  if (large)
    md_secondary_init(md_heap.large_base + pool, large - pool);
  /* Published last: a lookup that sees the large range finds it set up. */
  __atomic_store_n(&md_heap.large_size, large, __ATOMIC_RELEASE);
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    set_class(k, shift);
  return true;
}

/* ---- blocks ---------------------------------------------------------------- */

void md_heap_block_at(unsigned k, uint32_t i, struct md_block *b) {
  const struct md_class_info *c = &md_heap.classes[k];
  struct md_meta *m = md_meta_at(k, i);
  unsigned lead = MD_BITS_LEAD(__atomic_load_n(&m->bits, __ATOMIC_ACQUIRE));
  bool damaged = false;
  if (MD_UNLIKELY(lead * 16 >= c->size)) { /* past the slot: damaged */
    lead = 0;
    damaged = true;
  }
  b->meta = m;
  b->stacks = md_heap.stacks ? md_stacks_at(k, i) : NULL;
  b->user = md_slot_user(k, i) + lead * 16;
  b->size = m->size;
  b->room = c->size - lead * 16;
  b->klass = k;
  b->index = i;
  b->lead = lead;
  /* Walks run with other threads stopped (leak scans) or inside reports:
   * they bound the block, and leave the report to the block's next free. */
  if (MD_UNLIKELY(damaged || b->size + md_heap.expand > b->room))
    md_heap_meta_damaged_at(b, true);
}

MD_COLD void md_heap_meta_damaged_at(struct md_block *b, bool quiet) {
  /* What the slot holds, less the rear guard the slack must hold (the
   * checks read it there). */
  size_t keep = md_heap.expand + md_heap.rear_guard;
  size_t fits = b->room > keep ? b->room - keep : 0;
  size_t said = b->size;
  b->size = said < fits ? said : fits;
  if (quiet || !b->klass)
    return;
  uint32_t bits = __atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE);
  b->meta->size = (uint32_t)b->size; /* reported once: it fits now */
  /* Its slack holds the program's bytes: made rear guard, so that the one
   * damaged record is not also reported as a corrupted guard. */
  unsigned char *slack = b->user + md_block_usable(b);
  memset(slack, MD_GUARD_REAR, (size_t)(b->user + b->room - slack));
  md_heap_report_damaged(b, said, fits, bits);
}

/* A klass 0 block: page_guard's pool, or the secondary. */
static enum md_lookup find_large(const void *p, bool interior,
                                 struct md_block *b) {
  if (md_pageguard_owns(p))
    return md_pageguard_find(p, interior, b);
  return md_secondary_find(p, interior, b);
}

enum md_lookup md_heap_find(const void *p, struct md_block *b) {
  b->meta = NULL;
  if (!md_primary_contains(p))
    return find_large(p, true, b);
  unsigned k = md_region_of(p);
  uint32_t within;
  if (k == 0)
    return MD_IN_HEAP;
  uint32_t i = md_slot_of(k, p, &within);
  if (i >= md_fresh(k))
    return MD_IN_HEAP;
  md_heap_block_at(k, i, b);
  if (md_block_state(b) == MD_STATE_NEVER ||
      (const unsigned char *)p < b->user)
    return MD_IN_HEAP; /* a free slot, a guard area, an aligned block's lead */
  return (const unsigned char *)p == b->user ? MD_BLOCK : MD_INTERIOR;
}

MD_COLD bool md_heap_near(const void *p, struct md_block *b) {
  if (md_pageguard_owns(p))
    return md_pageguard_near(p, b);
  if (!md_primary_contains(p))
    return md_secondary_near(p, b);
  unsigned k = md_region_of(p);
  uint32_t fresh = k ? md_fresh(k) : 0, within, i = 0;
  if (!fresh)
    return false;
  if ((const unsigned char *)p >= md_slot_user(k, 0) - md_heap.guard)
    i = md_slot_of(k, p, &within);
  if (i >= fresh)
    i = fresh - 1;
  /* The slot holding p, or the nearest used one below it (past the carved
   * slots: the last one used). */
  for (uint32_t j = i + 1; j-- > 0 && i - j < 4096;) {
    md_heap_block_at(k, j, b);
    if (md_block_state(b) != MD_STATE_NEVER)
      return true;
  }
  return false;
}

bool md_heap_find_large(const void *p, struct md_block *b) {
  return find_large(p, false, b) == MD_BLOCK;
}

bool md_heap_large_slot(const void *p, struct md_block *b) {
  if (md_pageguard_owns(p))
    return md_pageguard_near(p, b);
  return md_secondary_slot(p, b);
}

bool md_heap_take_guarded(size_t size, size_t align, md_origin_t origin,
                          struct md_block *b) {
  switch (md_pageguard_take(size, align, origin, b)) {
  case MD_PAGEGUARD_TAKEN:
    return true;
  case MD_PAGEGUARD_LARGE_FRONT:
    return md_secondary_take_at(size, align, true, b);
  default:
    return false;
  }
}

bool md_heap_take_slow(size_t size, size_t align, struct md_block *b) {
  /* At least a byte: the pointer must lie inside its slot's area, or it
   * would resolve to the next slot. */
  size_t need = size + md_heap.extra ? size + md_heap.extra : 1;
  if (align > MD_MIN_ALIGN) {
    if (align > MD_PRIMARY_MAX_ALIGN)
      return md_secondary_take(size, align, b);
    need += align - MD_MIN_ALIGN;
  }
  if (need > MD_PRIMARY_MAX)
    return md_secondary_take(size, align, b);
  unsigned k = md_size_class(need), last = k + SPILL_CLASSES;
  uint32_t i;
  /* A full region (small under an address-space limit) spills into the
   * next classes' regions, then into the secondary. */
  while (!md_tcache_take(k, &i))
    if (++k > last || k > MD_CLASS_COUNT)
      return md_secondary_take(size, align, b);
  md_heap_new_block(k, i, size, b);
  if (align > MD_MIN_ALIGN) {
    unsigned char *area = b->user;
    b->user = (unsigned char *)(((uintptr_t)area + align - 1) &
                                ~(uintptr_t)(align - 1));
    b->lead = (unsigned)((b->user - area) >> 4);
    b->room -= (size_t)(b->user - area);
  }
  return true;
}

void md_heap_give_slot_slow(unsigned k, uint32_t i) { md_tcache_give(k, i); }

void md_heap_give_slot_slow_keep_errno(unsigned k, uint32_t i) {
  int saved_errno = errno;
  md_tcache_give(k, i);
  errno = saved_errno;
}

void md_heap_give_slow(const struct md_block *b) {
  if (b->klass)
    md_tcache_give(b->klass, b->index);
  else if (md_pageguard_owns(b->user))
    md_pageguard_give(b);
  else
    md_secondary_give(b);
}

void md_heap_protect_freed(const struct md_block *b) {
  if (b->klass)
    return;
  if (md_pageguard_owns(b->user))
    md_pageguard_protect(b);
  else
    md_secondary_protect(b);
}

size_t md_heap_quarantine_keep(const struct md_block *b, size_t budget,
                               bool first) {
  if (b->klass || md_pageguard_owns(b->user))
    return 0;
  return md_secondary_keep(b, budget, first);
}

void md_heap_zero_large(const struct md_block *b) {
  if (!md_pageguard_owns(b->user)) /* page_guard's pages are fresh */
    md_secondary_zero(b);
}

unsigned char *md_heap_large_front_guard(const struct md_block *b, size_t *n) {
  if (md_pageguard_owns(b->user))
    return md_pageguard_front_guard(b, n);
  return md_secondary_front_guard(b, n);
}

void md_heap_mapped_over(uintptr_t lo, uintptr_t hi) {
  if (hi > lo)
    md_secondary_mapped_over(lo, hi);
}

bool md_heap_large_given(const void *p, uintptr_t *lo, uintptr_t *hi) {
  return md_large_contains(p) && md_secondary_given(p, lo, hi);
}

/* ---- walks and statistics ------------------------------------------------ */

void md_heap_for_each(unsigned states,
                      void (*fn)(const struct md_block *b, void *arg),
                      void *arg) {
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++) {
    uint32_t fresh = md_fresh(k);
    for (uint32_t i = 0; i < fresh; i++) {
      uint32_t bits = __atomic_load_n(&md_meta_at(k, i)->bits, __ATOMIC_ACQUIRE);
      if (!(states & (1u << MD_BITS_STATE(bits))))
        continue;
      struct md_block b;
      md_heap_block_at(k, i, &b);
      fn(&b, arg);
    }
  }
  md_pageguard_for_each(states, fn, arg);
  md_secondary_for_each(states, fn, arg);
}

/* Bytes a block takes in all: its slot with the guard area before it and
 * its metadata, or its mapping. */
static size_t md_block_footprint(const struct md_block *b) {
  size_t meta = sizeof(struct md_meta) + (md_heap.stacks ? sizeof(struct md_stacks) : 0);
  if (b->klass)
    return md_heap.classes[b->klass].stride + meta;
  if (md_pageguard_owns(b->user))
    return md_pageguard_footprint(b);
  return md_secondary_footprint(b);
}

static void count(const struct md_block *b, void *arg) {
  struct md_heap_stats *st = arg;
  switch (md_block_state(b)) {
  case MD_STATE_LIVE:
    st->live_blocks++;
    st->live_bytes += b->size;
    st->live_footprint += md_block_footprint(b);
    break;
  case MD_STATE_QUARANTINED:
    st->quarantined_blocks++;
    st->quarantined_bytes += b->size;
    break;
  default:
    st->free_blocks++;
    break;
  }
}

MD_COLD void md_heap_stats(struct md_heap_stats *st) {
  memset(st, 0, sizeof(*st));
  md_heap_for_each((1u << MD_STATE_LIVE) | (1u << MD_STATE_QUARANTINED) |
                       (1u << MD_STATE_FREED) | (1u << MD_STATE_NEVER),
                   count, st);
  size_t shared;
  md_primary_stats(&st->committed, &st->released, &shared);
  size_t guarded, guarded_bytes;
  md_secondary_stats(&st->secondary_blocks, &st->secondary_bytes);
  md_pageguard_stats(1u << MD_STATE_LIVE, &guarded, &guarded_bytes);
  st->secondary_blocks += guarded;
  st->secondary_bytes += guarded_bytes;
}

/* ---- the leak scan's view (scan_heap.c; heap.h says when) ----------------- */

/* page_guard's pool has no lock to take: its walk reads metadata that is
 * never unmapped. */
void md_heap_scan_lock(void) { md_secondary_scan_lock(); }
void md_heap_scan_unlock(void) { md_secondary_scan_unlock(); }

void md_heap_scan_large_count(size_t *blocks, size_t *bytes) {
  size_t guarded, guarded_bytes;
  md_pageguard_stats(1u << MD_STATE_LIVE, &guarded, &guarded_bytes);
  md_secondary_scan_count(blocks, bytes);
  *blocks += guarded;
  *bytes += guarded_bytes;
}

void md_heap_scan_large(unsigned states,
                        void (*fn)(const struct md_block *b, void *arg),
                        void *arg) {
  md_pageguard_for_each(states, fn, arg);
  md_secondary_scan_each(states, fn, arg);
}

size_t md_heap_release_all(void) {
  return md_primary_release_all() + md_secondary_trim();
}
