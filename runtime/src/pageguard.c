/* pageguard.c - page_guard: chosen blocks get pages of their own, placed
 * against an inaccessible page, and those pages become inaccessible when the
 * block is freed, for as long as the quarantine holds it. Every block chosen
 * (page_guard=1) is Electric Fence; 1 in N (page_guard=N) is GWP-ASan. A
 * stray access then faults at the instruction, reads too, in code that was
 * never rebuilt; crash.c names the block.
 *
 * Which blocks: a per-thread countdown (md_pageguard_countdown) that the
 * allocation fast path (alloc.h's md_alloc_fast) decrements. When it was zero, the
 * path calls md_pageguard_take (through heap.c), which draws the next countdown (uniform in
 * 0..2N-2: 1 in N allocations on average, none predictable) and guards this
 * block if its size is in [page_guard_min_size, page_guard_max_size] and,
 * with page_guard_site, its site's function, file or module matches the
 * pattern (decided once per site, kept in a byte per origin id); a block
 * out of range leaves the countdown at zero, so that the next block in
 * range is the one chosen. With page_guard off, each thread's first call
 * sets its countdown to 2^64-1: the fast path pays one decrement and a branch
 * never taken.
 *
 * Where they live: a pool reserved at start-up (inaccessible, no memory
 * committed), at the start of the heap's large range (heap.h; a mapping of
 * its own when there is none), in six regions whose slots hold
 * 1, 2, 4, 8, 16 and 32 pages; each slot is an inaccessible page, then its
 * pages, so every slot has an inaccessible page on each side:
 *
 *   | guard | pages of slot i       | guard | pages of slot i+1 ...
 *   default (rear):          [block]| <- ends against slot i+1's guard
 *   page_guard_front: guard |[block]
 *
 * Only the pages the block spans are made accessible; the rest of its slot
 * stays inaccessible. A block is aligned to 16 bytes (page_guard_align), so
 * up to 15 bytes of slack may separate it from the page after it: rear guard
 * bytes there are checked at free, as for any block. Freeing replaces the
 * block's pages by inaccessible, empty ones in one system call (mmap
 * MAP_FIXED: protected, and the memory back to the OS); after the
 * quarantine the slot joins its region's FIFO of free slots, taken again
 * only when more than PG_REUSE_AFTER others wait there (fresh slots are
 * carved until then: GWP-ASan too uses every slot before it reuses one), so
 * a dangling pointer keeps faulting long after free_track let go.
 * Blocks too large for the largest slot (and alignments beyond a page) are
 * the secondary's, which already places each one at the end of its pages
 * against an inaccessible page, and at their start with page_guard_front.
 *
 * Metadata: 32 bytes a slot, in an array of each region, out of the slots:
 * struct md_meta (first, so a block's meta pointer is its record), the
 * stack ids, where the block starts and how many pages are accessible.
 * Blocks here are klass 0 for the rest of the runtime, as large blocks are:
 * heap.c, the facade, passes each call about a block in the pool's range on
 * to this file (find, front guard, protect, give, footprint, walks, the
 * leak scan's table), so md_heap_find, md_heap_resolve, free, realloc,
 * malloc_usable_size, leak scans and heap dumps see them as any block. This
 * file calls no other backend: a block too large for the pool that
 * page_guard_front would place is the secondary's, which heap.c asks.
 *
 * Limits. An accessible run of pages between inaccessible ones is a mapping
 * of its own to the kernel, with the inaccessible page after it two, and
 * vm.max_map_count (65530 by default) caps the mappings of a process: at
 * most (max_map_count - 8192) / 2 page-guarded blocks are live at once
 * (their freed pages merge back into one mapping), fewer when the program
 * holds mappings of its own (map_budget); past that, and when a
 * region has no slot left, blocks are not guarded (said once) until some
 * are freed. Each live block takes at least a page of memory.
 *
 * Lookups, walks and the fault handler take no lock: metadata is never
 * unmapped, slots are published with release. Taking and giving back a slot
 * holds its region's lock for a few instructions, never across a system
 * call. Never allocates through malloc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base.h"
#include "heap_internal.h"
#include "lock.h"
#include "log.h"
#include "options.h"
#include "origin.h"
#include "platform.h"
#include "platform_linux.h"
#include "scan_contract.h"
#include "site.h"
#include "suppress.h"

#define PAGE ((size_t)4096)
#define PG_REGIONS 6                        /* slots of 1, 2, 4, ... 32 pages */
#define PG_MAX_PAGES (1u << (PG_REGIONS - 1))
#define PG_SLOTS 65536u                     /* a region's slots */
#define PG_REUSE_AFTER 4096u /* free slots that wait before one is reused */
#define PG_MAPS_KEPT 8192    /* of vm.max_map_count, left to the program */

/* A slot's record. */
struct pg_meta {
  struct md_meta meta; /* first: b->meta is the record */
  struct md_stacks stacks;
  uint32_t user_off; /* the block's start, from the slot's first page */
  uint32_t open;     /* pages accessible now (0: none) */
};
_Static_assert(sizeof(struct pg_meta) == 32, "a slot's record is 32 bytes");

struct pg_region {
  md_lock_t lock;
  uint32_t pages;  /* a slot's pages, its guard page not counted */
  size_t stride;   /* (pages + 1) * PAGE */
  uintptr_t start; /* slot 0's guard page */
  uintptr_t end;   /* past the last slot's pages (a guard page follows) */
  struct pg_meta *meta;
  uint32_t *fifo;  /* free slots, oldest first: a ring of PG_SLOTS */
  uint32_t head, count;
  uint32_t fresh; /* slots carved so far (records exist); read with acquire */
} __attribute__((aligned(64)));

static struct pg_region regions[PG_REGIONS];
uintptr_t md_pageguard_lo, md_pageguard_hi;
static size_t live, live_cap; /* blocks with accessible pages, and the cap */
static size_t map_limit;      /* vm.max_map_count */
/* The mappings the process holds are counted again (map_budget) when live
 * reaches next_count, or after COUNT_EVERY_REFUSED blocks were refused. */
static size_t next_count, refused;
static md_lock_t count_lock = MD_LOCK_INIT;
static size_t align_min;
static bool front;
static int said_full, said_failed;

__thread uint64_t md_pageguard_countdown
    __attribute__((tls_model("initial-exec")));
static __thread uint32_t rng_state __attribute__((tls_model("initial-exec")));
/* page_guard_site: per origin id, SITE_UNDECIDED until its names are first
 * matched against the pattern. MD_ORIGIN_MAX bytes, mapped (zero pages) at
 * init; only the pages of ids in use become resident. */
enum { SITE_UNDECIDED, SITE_SKIPPED, SITE_CHOSEN };
static uint8_t *site_choice;

static inline uintptr_t page_down(uintptr_t x) { return x & ~(PAGE - 1); }
static inline uintptr_t page_up(uintptr_t x) { return page_down(x + PAGE - 1); }

/* vm.max_map_count, read with raw system calls (this runs inside the first
 * allocation); 65530, the kernel's default, if it cannot be read. */
static size_t max_map_count(void) {
  int fd = (int)md_sys3(SYS_openat, AT_FDCWD, "/proc/sys/vm/max_map_count",
                        O_RDONLY | O_CLOEXEC);
  char buf[32];
  long n = fd >= 0 ? md_sys3(SYS_read, fd, buf, sizeof(buf) - 1) : -1;
  if (fd >= 0)
    md_sys1(SYS_close, fd);
  size_t v = 0;
  for (long i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
    v = v * 10 + (size_t)(buf[i] - '0');
  return v ? v : 65530;
}

size_t md_pageguard_pool_size(void) {
  if (!md_opt.page_guard)
    return 0;
  size_t total = 0;
  for (unsigned j = 0; j < PG_REGIONS; j++)
    total += PG_SLOTS * (((size_t)1 << j) + 1) * PAGE + PAGE;
  return total;
}

void md_pageguard_init(uintptr_t pool) {
  if (!md_opt.page_guard)
    return;
  front = md_opt.page_guard_front != 0;
  size_t a = md_opt.page_guard_align ? md_opt.page_guard_align : MD_MIN_ALIGN;
  align_min = (size_t)1 << (63 - __builtin_clzll(a));
  size_t maps = max_map_count();
  map_limit = maps;
  live_cap = maps > 2 * PG_MAPS_KEPT ? (maps - PG_MAPS_KEPT) / 2 : maps / 4;
  next_count = 0; /* counted at the first guarded block */
  size_t total = md_pageguard_pool_size();
  /* In the heap's large range when it has one (already inaccessible). */
  bool own = !pool;
  void *base = pool ? (void *)pool
                    : mmap(NULL, total, PROT_NONE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    md_log("mdebug: page_guard: cannot reserve %zu MiB of address space for "
           "page-guarded blocks (%s); page_guard is off",
           total >> 20, strerror(errno));
    return;
  }
  uintptr_t at = (uintptr_t)base;
  for (unsigned j = 0; j < PG_REGIONS; j++) {
    struct pg_region *r = &regions[j];
    r->pages = 1u << j;
    r->stride = (r->pages + 1) * PAGE;
    r->start = at;
    r->end = at + PG_SLOTS * r->stride;
    at = r->end + PAGE;
    r->meta = md_mmap(PG_SLOTS * sizeof(struct pg_meta));
    r->fifo = md_mmap(PG_SLOTS * sizeof(uint32_t));
    if (!r->meta || !r->fifo) {
      md_log("mdebug: page_guard: no memory for the pool's tables; "
             "page_guard is off");
      if (own)
        munmap(base, total);
      return; /* the tables mapped so far are kept: harmless, and rare */
    }
  }
  if (md_opt.page_guard_site[0] && !(site_choice = md_mmap(MD_ORIGIN_MAX))) {
    md_log("mdebug: page_guard: no memory for the table of sites; "
           "page_guard is off");
    return;
  }
  md_pageguard_lo = (uintptr_t)base;
  md_pageguard_hi = (uintptr_t)base + total;
}

/* ---- choosing ---------------------------------------------------------------- */

static uint32_t next_random(void) {
  uint32_t x = rng_state;
  if (MD_UNLIKELY(!x)) /* this thread's first draw */
    x = (uint32_t)md_gettid() * 2654435761u ^
        (uint32_t)(uintptr_t)&rng_state ^ 0x9e3779b9u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  rng_state = x ? x : 1;
  return x;
}

/* Allocations to let pass before the next one is chosen. */
static uint64_t next_countdown(void) {
  size_t n = md_opt.page_guard;
  if (n <= 1)
    return 0;
  uint64_t span = n > UINT32_MAX / 2 ? UINT32_MAX : 2 * (uint64_t)n - 1;
  return next_random() % span;
}

static struct pg_region *region_of(uintptr_t p) {
  for (unsigned j = 0; j < PG_REGIONS; j++)
    if (p >= regions[j].start && p < regions[j].end + PAGE)
      return &regions[j];
  return NULL;
}
static inline uintptr_t slot_pages(const struct pg_region *r, uint32_t i) {
  return r->start + (uintptr_t)i * r->stride + PAGE;
}
static inline uint32_t slot_index(const struct pg_region *r, uint32_t i) {
  return (uint32_t)(r - regions) << 24 | i;
}

static void to_block(struct pg_region *r, uint32_t i, struct md_block *b) {
  struct pg_meta *m = &r->meta[i];
  b->meta = &m->meta;
  b->stacks = md_heap.stacks ? &m->stacks : NULL;
  b->user = (unsigned char *)(slot_pages(r, i) + m->user_off);
  b->size = m->meta.size;
  /* To the end of its accessible pages (at least the block's bytes while
   * they are inaccessible). */
  b->room = m->open ? page_down((uintptr_t)b->user) + m->open * PAGE -
                          (uintptr_t)b->user
                    : b->size + md_heap.expand;
  b->klass = 0;
  b->index = slot_index(r, i);
  b->lead = 0;
}

/* A slot of region r (under its lock): an old free one when enough wait,
 * else a fresh one; false when there is none. */
static bool take_slot(struct pg_region *r, uint32_t *slot) {
  if (r->count > PG_REUSE_AFTER || (r->fresh == PG_SLOTS && r->count)) {
    *slot = r->fifo[r->head];
    r->head = (r->head + 1) % PG_SLOTS;
    r->count--;
    return true;
  }
  if (r->fresh == PG_SLOTS)
    return false;
  *slot = r->fresh;
  /* Its record is zero (never used): publish. */
  __atomic_store_n(&r->fresh, r->fresh + 1, __ATOMIC_RELEASE);
  return true;
}

/* The region locks are taken with signals blocked: a handler that
 * allocates could otherwise come back for the lock its thread holds. */
static void give_slot(struct pg_region *r, uint32_t slot) {
  sigset_t old;
  md_lock_signals_blocked(&r->lock, &old);
  r->fifo[(r->head + r->count) % PG_SLOTS] = slot;
  r->count++;
  md_unlock_signals_restored(&r->lock, &old);
}

MD_COLD static MD_NOINLINE void say_full(void) {
  if (!__atomic_exchange_n(&said_full, 1, __ATOMIC_RELAXED))
    md_log("mdebug: page_guard: %zu page-guarded blocks are live, as many as "
           "vm.max_map_count (%zu) allows with the mappings the program "
           "holds, or no slot is free; further blocks are not guarded until "
           "some are freed",
           __atomic_load_n(&live, __ATOMIC_RELAXED), map_limit);
}

/* The mappings the process holds: the lines of /proc/self/maps (read by
 * procmaps.c, raw system calls); 0 if it cannot be read. */
static size_t count_mappings(void) {
  char buf[4096];
  struct md_maps it;
  struct md_maps_entry m;
  size_t lines = 0;
  if (md_maps_open(&it, "/proc/self/maps", buf, sizeof(buf)))
    while (md_maps_next(&it, &m))
      lines++;
  md_maps_close(&it);
  return lines;
}

/* Each guarded block costs two mappings, and the kernel refuses any
 * mapping past vm.max_map_count, the heap's own included: a program that
 * holds many mappings itself (10k-60k) left no room for the heap to grow,
 * and malloc failed. So the cap follows what the process holds: half of
 * what is left above a reserve of PG_MAPS_KEPT, counted again when half of
 * that room is used (rarely, when there is plenty), and after refusals (as
 * frees make room again). One thread counts; the others go on. */
#define COUNT_EVERY_REFUSED 4096
static MD_NOINLINE void map_budget(void) {
  if (!md_trylock(&count_lock))
    return;
  size_t held = count_mappings();
  size_t now = __atomic_load_n(&live, __ATOMIC_RELAXED);
  if (held) {
    size_t room = map_limit > held + PG_MAPS_KEPT
                      ? (map_limit - held - PG_MAPS_KEPT) / 2
                      : 0;
    size_t cap = map_limit > 2 * PG_MAPS_KEPT ? (map_limit - PG_MAPS_KEPT) / 2
                                              : map_limit / 4;
    if (now + room < cap)
      cap = now + room;
    __atomic_store_n(&live_cap, cap, __ATOMIC_RELAXED);
    __atomic_store_n(&next_count, now + (room / 2 > 64 ? room / 2 : 64),
                     __ATOMIC_RELAXED);
  }
  __atomic_store_n(&refused, 0, __ATOMIC_RELAXED);
  md_unlock(&count_lock);
}

/* Does the site of origin match page_guard_site? Its names (as leak
 * suppressions see them) are matched the first time its id is seen. */
static bool site_chosen(md_origin_t origin) {
  uint32_t id = md_origin_id(origin);
  if (!id) /* unknown, or no id left: no names to match */
    return false;
  uint8_t c = __atomic_load_n(&site_choice[id], __ATOMIC_RELAXED);
  if (MD_LIKELY(c != SITE_UNDECIDED))
    return c == SITE_CHOSEN;
  struct md_origin_names names;
  md_origin_names(origin, &names);
  c = md_suppress_match_names(md_opt.page_guard_site, &names) ? SITE_CHOSEN
                                                              : SITE_SKIPPED;
  __atomic_store_n(&site_choice[id], c, __ATOMIC_RELAXED);
  return c == SITE_CHOSEN;
}

enum md_pageguard_choice md_pageguard_take(size_t size, size_t align,
                                           md_origin_t origin,
                                           struct md_block *b) {
  if (MD_UNLIKELY(!md_pageguard_hi)) { /* off */
    md_pageguard_countdown = UINT64_MAX;
    return MD_PAGEGUARD_NO;
  }
  if (size < md_opt.page_guard_min_size ||
      (md_opt.page_guard_max_size && size > md_opt.page_guard_max_size) ||
      (site_choice && !site_chosen(origin))) {
    md_pageguard_countdown = 0; /* the next block in range is chosen */
    return MD_PAGEGUARD_NO;
  }
  md_pageguard_countdown = next_countdown();
  size_t n = size + md_heap.expand;
  if (n == 0)
    n = 1;
  if (align < align_min)
    align = align_min;
  if (align > PAGE)
    return MD_PAGEGUARD_NO; /* the secondary's (aligned first, then its pad) */
  /* Bytes from the block's start to the end of its pages. */
  size_t used = front ? n : (n + align - 1) & ~(align - 1);
  if (used > (size_t)PG_MAX_PAGES * PAGE) /* large: the secondary's */
    return front ? MD_PAGEGUARD_LARGE_FRONT : MD_PAGEGUARD_NO;
  uint32_t pages = (uint32_t)((used + PAGE - 1) / PAGE);
  unsigned j = pages <= 1 ? 0 : 32 - (unsigned)__builtin_clz(pages - 1);
  struct pg_region *r = &regions[j];
  size_t now = __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
  if (MD_UNLIKELY(now >= __atomic_load_n(&next_count, __ATOMIC_RELAXED)))
    map_budget();
  if (now > __atomic_load_n(&live_cap, __ATOMIC_RELAXED)) {
    __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
    if (__atomic_add_fetch(&refused, 1, __ATOMIC_RELAXED) >=
        COUNT_EVERY_REFUSED)
      map_budget();
    say_full();
    return MD_PAGEGUARD_NO;
  }
  uint32_t i;
  sigset_t old;
  md_lock_signals_blocked(&r->lock, &old);
  bool got = take_slot(r, &i);
  md_unlock_signals_restored(&r->lock, &old);
  if (!got) {
    __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
    say_full();
    return MD_PAGEGUARD_NO;
  }
  uintptr_t first = slot_pages(r, i), user;
  if (front)
    user = first;
  else
    user = (first + r->pages * PAGE - n) & ~(uintptr_t)(align - 1);
  uintptr_t lo = page_down(user), hi = page_up(user + n);
  if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0) {
    int e = errno;
    give_slot(r, i);
    __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
    if (!__atomic_exchange_n(&said_failed, 1, __ATOMIC_RELAXED))
      md_log("mdebug: page_guard: cannot make a guarded block's pages "
             "accessible (%s); that block and others like it are not "
             "guarded", strerror(e));
    if (e == ENOMEM) /* out of mappings, most likely: count them again */
      map_budget();
    return MD_PAGEGUARD_NO;
  }
  struct pg_meta *m = &r->meta[i];
  m->user_off = (uint32_t)(user - first);
  m->open = (uint32_t)((hi - lo) / PAGE);
  __atomic_fetch_add(&md_heap_large_committed, hi - lo, __ATOMIC_RELAXED);
  /* The pages are fresh (never used, or emptied when the last block here
   * was freed): zero, as calloc needs. The caller writes the metadata. */
  to_block(r, i, b);
  b->size = size;
  return MD_PAGEGUARD_TAKEN;
}

/* ---- freeing ------------------------------------------------------------------ */

void md_pageguard_protect(const struct md_block *b) {
  struct pg_meta *m = (struct pg_meta *)(void *)b->meta;
  uint32_t open = m->open;
  if (!open)
    return;
  uintptr_t lo = page_down((uintptr_t)b->user);
  size_t len = (size_t)open * PAGE;
  /* New, empty, inaccessible pages in place of the block's: protected and
   * given back at once, and merged with the inaccessible pages around. */
  if (mmap((void *)lo, len, PROT_NONE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
           0) == MAP_FAILED) {
    mprotect((void *)lo, len, PROT_NONE);
    madvise((void *)lo, len, MADV_DONTNEED);
  }
  m->open = 0;
  __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
  __atomic_fetch_sub(&md_heap_large_committed, len, __ATOMIC_RELAXED);
}

void md_pageguard_give(const struct md_block *b) {
  md_pageguard_protect(b);
  struct pg_region *r = &regions[b->index >> 24];
  give_slot(r, b->index & 0xffffffu);
}

/* ---- finding and walking -------------------------------------------------- */

unsigned char *md_pageguard_front_guard(const struct md_block *b, size_t *n) {
  size_t before = (uintptr_t)b->user - page_down((uintptr_t)b->user);
  *n = md_heap.front_guard < before ? md_heap.front_guard : before;
  return b->user - *n;
}

size_t md_pageguard_footprint(const struct md_block *b) {
  const struct pg_meta *m = (const struct pg_meta *)(const void *)b->meta;
  return (size_t)m->open * PAGE + sizeof(*m);
}

enum md_lookup md_pageguard_find(const void *p, bool interior,
                                 struct md_block *b) {
  b->meta = NULL;
  struct pg_region *r = region_of((uintptr_t)p);
  if (!r)
    return MD_IN_HEAP;
  uintptr_t off = (uintptr_t)p - r->start;
  uint32_t i = (uint32_t)(off / r->stride);
  if (i >= __atomic_load_n(&r->fresh, __ATOMIC_ACQUIRE) ||
      MD_BITS_STATE(__atomic_load_n(&r->meta[i].meta.bits, __ATOMIC_ACQUIRE)) ==
          MD_STATE_NEVER)
    return MD_IN_HEAP;
  to_block(r, i, b);
  const unsigned char *q = p;
  if (q == b->user)
    return MD_BLOCK;
  if (interior && q > b->user && q < b->user + b->room)
    return MD_INTERIOR;
  if (q > b->user)
    b->meta = NULL; /* past its pages: nobody's bytes */
  return MD_IN_HEAP;
}

/* Distance from p to block b's bytes (0 inside). */
static uintptr_t distance(uintptr_t p, const struct md_block *b) {
  uintptr_t u = (uintptr_t)b->user, e = u + b->size;
  return p < u ? u - p : p >= e ? p - e + 1 : 0;
}

MD_COLD bool md_pageguard_near(const void *p, struct md_block *b) {
  struct pg_region *r = region_of((uintptr_t)p);
  if (!r)
    return false;
  uint32_t fresh = __atomic_load_n(&r->fresh, __ATOMIC_ACQUIRE);
  if (!fresh)
    return false;
  uintptr_t off = (uintptr_t)p - r->start;
  uint32_t i = (uint32_t)(off / r->stride);
  if (i >= fresh)
    i = fresh - 1;
  /* The block of this slot, or of the one before (p in this slot's guard
   * page, after the block of the one before), whichever is nearer; every
   * slot below fresh was handed out, but one may have failed its mprotect. */
  bool found = false;
  uintptr_t best = UINTPTR_MAX;
  for (uint32_t k = i + 1; k-- > 0 && i - k < 64;) {
    uint32_t bits =
        __atomic_load_n(&r->meta[k].meta.bits, __ATOMIC_ACQUIRE);
    if (MD_BITS_STATE(bits) == MD_STATE_NEVER)
      continue;
    struct md_block c;
    to_block(r, k, &c);
    uintptr_t d = distance((uintptr_t)p, &c);
    if (d < best) {
      best = d;
      *b = c;
      found = true;
    }
    if (k < i)
      break; /* the nearest used slot below this one */
  }
  return found;
}

void md_pageguard_for_each(unsigned states,
                           void (*fn)(const struct md_block *b, void *arg),
                           void *arg) {
  if (!md_pageguard_hi)
    return;
  for (unsigned j = 0; j < PG_REGIONS; j++) {
    struct pg_region *r = &regions[j];
    uint32_t fresh = __atomic_load_n(&r->fresh, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < fresh; i++) {
      uint32_t bits =
          __atomic_load_n(&r->meta[i].meta.bits, __ATOMIC_ACQUIRE);
      if (!(states & (1u << MD_BITS_STATE(bits))))
        continue;
      struct md_block b;
      to_block(r, i, &b);
      fn(&b, arg);
    }
  }
}

static void count(const struct md_block *b, void *arg) {
  size_t *c = arg;
  c[0]++;
  c[1] += md_pageguard_footprint(b);
}

void md_pageguard_stats(unsigned states, size_t *blocks, size_t *bytes) {
  size_t c[2] = {0, 0};
  md_pageguard_for_each(states, count, c);
  *blocks = c[0];
  *bytes = c[1];
}

void md_pageguard_atfork_prepare(void) {
  for (unsigned j = 0; j < PG_REGIONS; j++)
    md_lock(&regions[j].lock);
}
void md_pageguard_atfork_parent(void) {
  for (unsigned j = PG_REGIONS; j-- > 0;)
    md_unlock(&regions[j].lock);
}
void md_pageguard_atfork_child(void) {
  for (unsigned j = 0; j < PG_REGIONS; j++)
    md_lock_reset(&regions[j].lock);
  md_lock_reset(&count_lock); /* a recount the fork caught half done */
}
