/* mmap.c - the program's mappings: mmap, mmap64, munmap, mremap and
 * mprotect, as __mdebug_* entry points (instrumented code: a site) and as
 * the standard symbols (everything else: the caller's return address), and
 * the table of the mappings they made, with site, stack, size, protection
 * and flags, for leak reports, statistics, heap dumps and thresholds.
 *
 * The table is cut by address into zones (ZONE_SHIFT), each zone belonging
 * to one of SHARDS shards (zone mod SHARDS), each shard a lock and a sorted array of
 * the records overlapping any of its zones (disjoint, as mappings are). A
 * record is in every shard its zones map to, and a call locks only those
 * shards, in ascending order: calls on distant mappings never meet, and
 * there is no global lock. munmap, mremap, mprotect and MAP_FIXED keep
 * their shards locked across the system call, so the table changes in the
 * kernel's order: an address another thread's mmap gets back can no longer
 * hold a record of the mapping that was there (whose removal would
 * otherwise race with the new record). A plain mmap makes its system call
 * first and replaces whatever stale record overlaps what it got.
 *
 * The runtime's own mappings (its heap's reservation and commits, the depot,
 * the scanner's arrays) never enter the table: a call whose return address
 * lies in the runtime's code (md_runtime_code: either of its sections,
 * base.h) goes straight to the kernel; only its growth is noted for the
 * thresholds (threshold.c), and what the heap commits of its reservation is
 * counted, so that vm_threshold can leave the uncommitted rest out.
 *
 * Before a call that maps over, unmaps or moves a range (MAP_FIXED,
 * munmap, mremap), tracked or not, the heap is told (md_heap_mapped_over):
 * a program may map over a large block it freed, and the span is then its
 * own, never to be touched by mdebug again (secondary.c).
 *
 * The tables' memory (records, shard arrays, threads.c's records) comes
 * from a reservation of their own, made at the first need, not from
 * mappings the kernel may place anywhere: a program that unmaps a hole in
 * its mapping and later the whole range (over the hole, which anyone may
 * have mapped meanwhile) would otherwise unmap the tables under us.
 *
 * Never allocates through malloc; makes its system calls raw, so errno is
 * set here and nothing of libc's runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "base.h"
#include "copies.h"
#include "heap.h"
#include "init.h"
#include "lifecycle.h"
#include "lock.h"
#include "mappings.h"
#include "options.h"
#include "platform_linux.h"
#include "print.h"
#include "scan_contract.h"
#include "stacks.h"
#include "threshold.h"

#define PAGE 4096u
#define ZONE_SHIFT 20 /* 1 MiB: 64 shards cover 64 MiB */
#define SHARDS 64u /* one bit each in a uint64_t */
#define SLAB_BYTES (64u << 10)

/* ---- raw system calls: errno set, MAP_FAILED / -1 on failure, as libc's ----
 * Never through libc's mmap: that symbol is this file's own (interposed). */

static void *sys_mmap(void *a, size_t n, int prot, int flags, int fd, off_t o) {
  long r = md_sys_errno(md_sys6(SYS_mmap, (long)a, (long)n, prot, flags, fd, o));
  return r == -1 ? MAP_FAILED : (void *)r;
}
static int sys_munmap(void *a, size_t n) {
  return (int)md_sys_errno(md_sys2(SYS_munmap, a, n));
}
static int sys_mprotect(void *a, size_t n, int prot) {
  return (int)md_sys_errno(md_sys3(SYS_mprotect, a, n, prot));
}
static void *sys_mremap(void *a, size_t old, size_t new, int flags, void *to) {
  long r = md_sys_errno(md_sys5(SYS_mremap, a, old, new, flags, to));
  return r == -1 ? MAP_FAILED : (void *)r;
}

static inline uintptr_t page_down(uintptr_t x) { return x & ~(uintptr_t)(PAGE - 1); }
static inline uintptr_t page_up(uintptr_t x) { return page_down(x + PAGE - 1); }

/* ---- the runtime's own calls --------------------------------------------- */

static inline bool from_runtime(const void *ret) {
  return md_runtime_code((uintptr_t)ret);
}

static size_t heap_committed; /* bytes of the heap's reservation made RW */

size_t md_mmap_heap_committed(void) {
  return __atomic_load_n(&heap_committed, __ATOMIC_RELAXED);
}

static inline bool in_reservation(uintptr_t b, size_t n) {
  return md_heap.reserved && b - md_heap.base < md_heap.size &&
         n <= md_heap.base + md_heap.size - b;
}

/* ---- the tables' memory ------------------------------------------------- */

#define ARENA_BYTES ((size_t)64 << 20) /* NORESERVE: only what is used costs */
#define ARENA_CLASSES 16               /* 4 KiB << 0 .. 15 */

/* The runtime's data is a root of the leak scan: no word here may point
 * past the reservation (into the program's mapping that may follow it), so
 * the arena keeps its start and how much of it is used, not its end. */
static struct {
  md_lock_t lock;
  uintptr_t base; /* 0: not reserved yet */
  size_t used;
  void *free[ARENA_CLASSES]; /* freed pieces, by size class */
} arena = {MD_LOCK_INIT, 0, 0, {0}};

static unsigned arena_class(size_t bytes) {
  unsigned k = 0;
  while (((size_t)PAGE << k) < bytes)
    k++;
  return k;
}

/* bytes (at most 128 MiB) of zeroed memory; NULL without. Past the
 * reservation, or for sizes it has no class for, md_mmap. */
void *md_tables_alloc(size_t bytes) {
  unsigned k = arena_class(bytes);
  if (k >= ARENA_CLASSES)
    return md_mmap(bytes);
  size_t size = (size_t)PAGE << k;
  void *p = NULL;
  md_lock(&arena.lock);
  if (arena.free[k]) {
    p = arena.free[k];
    arena.free[k] = *(void **)p;
  } else {
    if (!arena.base) {
      void *base = sys_mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base != MAP_FAILED)
        arena.base = (uintptr_t)base;
    }
    if (arena.base && ARENA_BYTES - arena.used >= size) {
      p = (void *)(arena.base + arena.used);
      arena.used += size;
    }
  }
  md_unlock(&arena.lock);
  if (!p)
    return md_mmap(bytes);
  memset(p, 0, bytes);
  return p;
}

void md_tables_free(void *p, size_t bytes) {
  if (!p)
    return;
  unsigned k = arena_class(bytes);
  if (k >= ARENA_CLASSES || (uintptr_t)p - arena.base >= ARENA_BYTES) {
    md_munmap(p, bytes);
    return;
  }
  md_lock(&arena.lock);
  *(void **)p = arena.free[k];
  arena.free[k] = p;
  md_unlock(&arena.lock);
}

/* ---- records and shards -------------------------------------------------- */

struct rec {
  uintptr_t begin, end;
  md_origin_t origin;
  uint32_t stack;
  uint32_t group; /* pieces of one mmap share it (add_piece copies it) */
  uint16_t prot;
  uint8_t flags, op, epoch, marks;
  struct rec *next_free;
};

/* A record in a shard's array, with its end: a search reads the array
 * alone, not the records. */
struct slot {
  uintptr_t end;
  struct rec *r;
};

struct shard {
  md_lock_t lock;
  uint32_t n, cap;
  struct slot *v; /* sorted by address, disjoint */
  struct rec *free;
} __attribute__((aligned(64)));

static struct shard shards[SHARDS];

/* A set of shards: one bit each. */
struct set {
  uint64_t w;
};

static inline unsigned shard_of(uintptr_t a) {
  return (unsigned)(a >> ZONE_SHIFT) & (SHARDS - 1);
}
static inline void set_bit(struct set *s, unsigned i) { s->w |= 1ull << i; }
/* The shards of the zones [lo, hi) touches (hi > lo): a run of bits,
 * rotated to the first zone's. */
static void add_range(struct set *s, uintptr_t lo, uintptr_t hi) {
  uintptr_t z0 = lo >> ZONE_SHIFT, n = ((hi - 1) >> ZONE_SHIFT) - z0 + 1;
  if (n >= SHARDS) {
    s->w = ~0ull;
    return;
  }
  uint64_t run = (1ull << n) - 1;
  unsigned r = (unsigned)z0 & (SHARDS - 1);
  s->w |= (run << r) | (r ? run >> (SHARDS - r) : 0);
}
/* For each shard i in set s, in ascending order. */
#define FOR_EACH_SHARD(i, s)                                                   \
  for (uint64_t b_ = (s)->w; b_; b_ &= b_ - 1)                                \
    for (unsigned i = (unsigned)__builtin_ctzll(b_), once_ = 1; once_;       \
         once_ = 0)

static inline bool subset(const struct set *a, const struct set *of) {
  return (a->w & ~of->w) == 0;
}
static void lock_set(const struct set *s) {
  FOR_EACH_SHARD(i, s)
  md_lock(&shards[i].lock);
}
static void unlock_set(const struct set *s) {
  FOR_EACH_SHARD(i, s)
  md_unlock(&shards[i].lock);
}
static inline unsigned lowest(const struct set *s) {
  return (unsigned)__builtin_ctzll(s->w);
}

/* Index of the first record of sh ending after a. */
static uint32_t first_ending_after(const struct shard *sh, uintptr_t a) {
  uint32_t lo = 0, hi = sh->n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (sh->v[mid].end <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The record holding a (its shard locked), or NULL. */
static struct rec *holding(uintptr_t a) {
  const struct shard *sh = &shards[shard_of(a)];
  uint32_t i = first_ending_after(sh, a);
  return i < sh->n && sh->v[i].r->begin <= a ? sh->v[i].r : NULL;
}

/* The record with the lowest start overlapping [lo, hi), among the shards
 * of those zones (all locked), or NULL. */
static struct rec *first_overlap(uintptr_t lo, uintptr_t hi) {
  struct set s = {0};
  add_range(&s, lo, hi);
  struct rec *best = NULL;
  FOR_EACH_SHARD(i, &s) {
    const struct shard *sh = &shards[i];
    uint32_t k = first_ending_after(sh, lo);
    if (k < sh->n && sh->v[k].r->begin < hi &&
        (!best || sh->v[k].r->begin < best->begin))
      best = sh->v[k].r;
  }
  return best;
}

/* Locks what a change of [lo, hi) needs: its zones' shards and those of the
 * records reaching into it from either side. */
/* Returns false when no record overlaps [lo, hi) (a fresh mapping's range,
 * usually): carve has nothing to do. The record holding hi - 1 is searched
 * for only when the one holding lo does not reach it and another record
 * may (one search in the common cases: a fresh range, a whole mapping). */
static bool lock_range(struct set *held, uintptr_t lo, uintptr_t hi) {
  struct set want = {0};
  add_range(&want, lo, hi);
  for (;;) {
    lock_set(&want);
    const struct shard *sh = &shards[shard_of(lo)];
    uint32_t i = first_ending_after(sh, lo);
    struct rec *next = i < sh->n ? sh->v[i].r : NULL;
    struct rec *first = next && next->begin <= lo ? next : NULL, *last;
    bool overlap = next && next->begin < hi;
    if (first && first->end >= hi)
      last = first;
    else if (!overlap && shard_of(hi - 1) == shard_of(lo) &&
             (hi - 1) - lo < ((uintptr_t)1 << ZONE_SHIFT))
      last = NULL; /* one zone, nothing in it overlaps */
    else {
      last = holding(hi - 1);
      overlap = true; /* maybe, in another shard */
    }
    struct set need = want;
    add_range(&need, first ? first->begin : lo, last ? last->end : hi);
    if (subset(&need, &want)) {
      *held = want;
      return overlap;
    }
    unlock_set(&want);
    want = need;
  }
}

static bool grow_array(struct shard *sh) {
  uint32_t cap = sh->cap ? sh->cap * 2 : 64;
  struct slot *v = md_tables_alloc(cap * sizeof(*v));
  if (!v)
    return false;
  if (sh->v) {
    memcpy(v, sh->v, sh->n * sizeof(*v));
    md_tables_free(sh->v, sh->cap * sizeof(*v));
  }
  sh->v = v;
  sh->cap = cap;
  return true;
}

static bool shard_insert(struct shard *sh, struct rec *r) {
  if (sh->n == sh->cap && !grow_array(sh))
    return false;
  uint32_t i = first_ending_after(sh, r->begin);
  memmove(sh->v + i + 1, sh->v + i, (sh->n - i) * sizeof(*sh->v));
  sh->v[i] = (struct slot){r->end, r};
  sh->n++;
  return true;
}

static void shard_remove(struct shard *sh, const struct rec *r) {
  uint32_t i = first_ending_after(sh, r->begin);
  if (i < sh->n && sh->v[i].r == r) {
    memmove(sh->v + i, sh->v + i + 1, (sh->n - i - 1) * sizeof(*sh->v));
    sh->n--;
  }
}

static void unlink_from(const struct set *s, const struct rec *r) {
  FOR_EACH_SHARD(i, s)
  shard_remove(&shards[i], r);
}

static void unlink_rec(const struct rec *r) {
  struct set s = {0};
  add_range(&s, r->begin, r->end);
  unlink_from(&s, r);
}

/* Records come from the pool of the lowest shard held, and go back there. */
static struct rec *new_rec(const struct set *held) {
  struct shard *sh = &shards[lowest(held)];
  if (!sh->free) {
    struct rec *slab = md_tables_alloc(SLAB_BYTES);
    if (!slab)
      return NULL;
    for (size_t i = 0; i < SLAB_BYTES / sizeof(*slab); i++) {
      slab[i].next_free = sh->free;
      sh->free = &slab[i];
    }
  }
  struct rec *r = sh->free;
  sh->free = r->next_free;
  return r;
}
static void free_rec(const struct set *held, struct rec *r) {
  struct shard *sh = &shards[lowest(held)];
  r->next_free = sh->free;
  sh->free = r;
}

static size_t dropped; /* records lost to a failed md_mmap */

/* Puts r in every shard of its zones (all held); false (r dropped, then
 * freed) without memory. */
static bool link_rec(const struct set *held, struct rec *r) {
  struct set s = {0};
  add_range(&s, r->begin, r->end);
  struct set done = {0};
  FOR_EACH_SHARD(i, &s) {
    if (!shard_insert(&shards[i], r)) {
      unlink_from(&done, r);
      free_rec(held, r);
      __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
      return false;
    }
    set_bit(&done, i);
  }
  return true;
}

/* A piece [b, e) of r as a new record (the rest of r unchanged). */
static void add_piece(const struct set *held, const struct rec *r, uintptr_t b,
                      uintptr_t e, uint16_t prot) {
  struct rec *p = new_rec(held);
  if (!p) {
    __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
    return;
  }
  *p = *r;
  p->begin = b;
  p->end = e;
  p->prot = prot;
  link_rec(held, p);
}

enum carve_mode { UNMAP, PROTECT };

/* With [lo, hi)'s shards held (lock_range): forgets the part of every
 * record inside [lo, hi) (UNMAP), or gives it protection prot (PROTECT),
 * splitting records at lo and hi. */
static void carve(const struct set *held, uintptr_t lo, uintptr_t hi,
                  enum carve_mode mode, uint16_t prot) {
  uintptr_t at = lo;
  struct rec *r;
  while (at < hi && (r = first_overlap(at, hi)) != NULL) {
    uintptr_t b = r->begin > lo ? r->begin : lo;
    uintptr_t e = r->end < hi ? r->end : hi;
    at = e;
    if (mode == PROTECT && r->prot == prot)
      continue;
    unlink_rec(r);
    if (r->begin < b)
      add_piece(held, r, r->begin, b, r->prot);
    if (mode == PROTECT)
      add_piece(held, r, b, e, prot);
    if (e < r->end)
      add_piece(held, r, e, r->end, r->prot);
    free_rec(held, r);
  }
}

/* ---- what the entry points do -------------------------------------------- */

static int tracking_state; /* 0 undecided, 1 on, 2 off */

bool md_mmap_tracking(void) {
  int s = __atomic_load_n(&tracking_state, __ATOMIC_ACQUIRE);
  if (MD_LIKELY(s))
    return s == 1;
  md_ensure_init();
  s = md_opt.track_mmap ? 1 : 2;
  __atomic_store_n(&tracking_state, s, __ATOMIC_RELEASE);
  return s == 1;
}

static uint8_t map_flags(int flags, bool fixed) {
  int type = flags & MAP_TYPE; /* MAP_SHARED_VALIDATE shares too */
  return (uint8_t)((type == MAP_SHARED || type == MAP_SHARED_VALIDATE
                        ? MD_MAP_SHARED
                        : 0) |
                   ((flags & MAP_ANONYMOUS) ? MD_MAP_ANON : 0) |
                   (fixed ? MD_MAP_FIXED : 0));
}

static uint32_t groups;

static struct rec new_mapping(uintptr_t p, size_t len, uint16_t prot,
                              uint8_t flags, unsigned op, md_origin_t origin,
                              uint32_t stack) {
  return (struct rec){p,
                      p + len,
                      origin,
                      stack,
                      __atomic_add_fetch(&groups, 1, __ATOMIC_RELAXED),
                      prot,
                      flags,
                      (uint8_t)op,
                      (uint8_t)(md_fork_epoch & MD_EPOCH_MASK),
                      0,
                      NULL};
}

/* Records [p, p + len) (its shards held, stale records there forgotten). */
static void record(const struct set *held, uintptr_t p, size_t len,
                   uint16_t prot, uint8_t flags, unsigned op,
                   md_origin_t origin, uint32_t stack) {
  struct rec *r = new_rec(held);
  if (!r) {
    __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
    return;
  }
  *r = new_mapping(p, len, prot, flags, op, origin, stack);
  link_rec(held, r);
}

static inline bool big_enough(size_t len) {
  return len >= md_opt.mmap_min_size;
}

/* ---- the fast paths: one zone, a fresh range or a whole record ----------
 * Most calls map a fresh range, or unmap a whole mapping, inside one zone:
 * one lock, one search, one move of the shard's array. Anything else goes
 * the general way (lock_range, carve). */

static inline bool one_zone(uintptr_t b, uintptr_t e) {
  return (b >> ZONE_SHIFT) == ((e - 1) >> ZONE_SHIFT);
}

/* Records *proto's range if it lies in one zone where nothing overlaps it;
 * false (nothing done) otherwise. */
static bool fast_record(const struct rec *proto) {
  if (!one_zone(proto->begin, proto->end))
    return false;
  unsigned k = shard_of(proto->begin);
  struct shard *sh = &shards[k];
  md_lock(&sh->lock);
  uint32_t i = first_ending_after(sh, proto->begin);
  struct set held = {1ull << k};
  struct rec *r = NULL;
  if ((i == sh->n || sh->v[i].r->begin >= proto->end) &&
      (sh->n < sh->cap || grow_array(sh)) && (r = new_rec(&held))) {
    *r = *proto;
    memmove(sh->v + i + 1, sh->v + i, (sh->n - i) * sizeof(*sh->v));
    sh->v[i] = (struct slot){r->end, r};
    sh->n++;
  }
  md_unlock(&sh->lock);
  return r != NULL;
}

/* munmap of [b, e) inside one zone that holds exactly one whole record
 * there, or none: *done then, and the system call's result. */
static int fast_munmap(uintptr_t b, uintptr_t e, bool *done) {
  *done = false;
  if (!one_zone(b, e))
    return 0;
  unsigned k = shard_of(b);
  struct shard *sh = &shards[k];
  md_lock(&sh->lock);
  uint32_t i = first_ending_after(sh, b);
  struct rec *r = i < sh->n ? sh->v[i].r : NULL;
  if (r && r->begin < e &&
      (r->begin != b || r->end != e || !one_zone(r->begin, r->end))) {
    md_unlock(&sh->lock);
    return 0;
  }
  if (r && r->begin >= e)
    r = NULL; /* nothing of ours there */
  int result = sys_munmap((void *)b, e - b);
  if (result == 0 && r) {
    memmove(sh->v + i, sh->v + i + 1, (sh->n - i - 1) * sizeof(*sh->v));
    sh->n--;
    struct set held = {1ull << k};
    free_rec(&held, r);
  }
  md_unlock(&sh->lock);
  *done = true;
  return result;
}

/* The program is about to replace, unmap or move [addr, addr + len): the
 * heap gives up any large block's span there (before the system call:
 * from then on mdebug never touches those pages). */
static inline void heap_gives_up(const void *addr, size_t len) {
  uintptr_t b = (uintptr_t)addr;
  if (len && b % PAGE == 0 && page_up(b + len) > b)
    md_heap_mapped_over(b, page_up(b + len));
}

static void *mmap_impl(void *addr, size_t len, int prot, int flags, int fd,
                       off_t off, unsigned op, md_origin_t origin) {
  if (flags & MAP_FIXED)
    heap_gives_up(addr, len);
  if (!md_mmap_tracking())
    return sys_mmap(addr, len, prot, flags, fd, off);
  size_t span = page_up(len);
  bool fixed = (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) != 0;
  uint32_t stack =
      big_enough(len) && md_backtrace_frames() ? md_backtrace_alloc(len) : 0;
  struct set held;
  void *p;
  if (fixed && span) {
    /* It may replace mappings: in the kernel's order (see the top). */
    uintptr_t b = page_down((uintptr_t)addr);
    lock_range(&held, b, b + span);
    p = sys_mmap(addr, len, prot, flags, fd, off);
    if (p != MAP_FAILED) {
      carve(&held, (uintptr_t)p, (uintptr_t)p + span, UNMAP, 0);
      if (big_enough(len))
        record(&held, (uintptr_t)p, span, (uint16_t)prot, map_flags(flags, true),
               op, origin, stack);
    }
    unlock_set(&held);
  } else {
    p = sys_mmap(addr, len, prot, flags, fd, off);
    struct rec proto;
    if (p != MAP_FAILED && big_enough(len))
      proto = new_mapping((uintptr_t)p, span, (uint16_t)prot,
                          map_flags(flags, false), op, origin, stack);
    if (p != MAP_FAILED && big_enough(len) && !fast_record(&proto)) {
      if (lock_range(&held, (uintptr_t)p, (uintptr_t)p + span))
        carve(&held, (uintptr_t)p, (uintptr_t)p + span, UNMAP, 0); /* stale */
      struct rec *r = new_rec(&held);
      if (r) {
        *r = proto;
        link_rec(&held, r);
      } else {
        __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
      }
      unlock_set(&held);
    }
  }
  if (p != MAP_FAILED)
    md_threshold_grew(span, true);
  return p;
}

static int munmap_impl(void *addr, size_t len) {
  heap_gives_up(addr, len);
  if (!md_mmap_tracking() || !len)
    return sys_munmap(addr, len);
  uintptr_t b = (uintptr_t)addr, e = page_up(b + len);
  if (e <= b || b % PAGE) /* the kernel says EINVAL */
    return sys_munmap(addr, len);
  bool done;
  int r = fast_munmap(b, e, &done);
  if (done) {
    if (r == 0)
      md_threshold_shrank();
    return r;
  }
  struct set held;
  lock_range(&held, b, e);
  r = sys_munmap(addr, len);
  if (r == 0)
    carve(&held, b, e, UNMAP, 0);
  unlock_set(&held);
  if (r == 0)
    md_threshold_shrank();
  return r;
}

static int mprotect_impl(void *addr, size_t len, int prot) {
  if (!md_mmap_tracking() || !len)
    return sys_mprotect(addr, len, prot);
  uintptr_t b = (uintptr_t)addr, e = page_up(b + len);
  if (e <= b)
    return sys_mprotect(addr, len, prot);
  struct set held;
  lock_range(&held, page_down(b), e);
  int r = sys_mprotect(addr, len, prot);
  if (r == 0)
    carve(&held, b, e, PROTECT, (uint16_t)prot);
  unlock_set(&held);
  return r;
}

/* The old mapping's record (if any) lends the new one its protection and
 * flags; the result is charged to the mremap site, as realloc's block is. */
static void *mremap_impl(void *old, size_t old_size, size_t new_size, int flags,
                         void *to, md_origin_t origin) {
  heap_gives_up(old, old_size);
  if (flags & MREMAP_FIXED)
    heap_gives_up(to, new_size);
  if (!md_mmap_tracking())
    return sys_mremap(old, old_size, new_size, flags, to);
  uintptr_t b = (uintptr_t)old, old_span = page_up(old_size);
  struct set held;
  lock_range(&held, page_down(b), page_down(b) + (old_span ? old_span : PAGE));
  struct rec *r = holding(b);
  struct rec meta = r ? *r
                      : (struct rec){0, 0, 0, 0, 0, PROT_READ | PROT_WRITE,
                                     MD_MAP_ANON | MD_MAP_GUESSED, 0, 0, 0, NULL};
  void *p = sys_mremap(old, old_size, new_size, flags, to);
  /* Every page of the old range moved or went, unless DONTUNMAP kept it
   * (empty), or old_size 0 made a second mapping of shared pages. */
  if (p != MAP_FAILED && old_span && !(flags & MREMAP_DONTUNMAP))
    carve(&held, b, b + old_span, UNMAP, 0);
  unlock_set(&held);
  if (p == MAP_FAILED)
    return p;
  size_t new_span = page_up(new_size);
  if (new_span && big_enough(new_size) && (r || old_span == 0 || !big_enough(old_size))) {
    uint32_t stack = md_backtrace_frames() ? md_backtrace_alloc(new_size) : 0;
    lock_range(&held, (uintptr_t)p, (uintptr_t)p + new_span);
    carve(&held, (uintptr_t)p, (uintptr_t)p + new_span, UNMAP, 0);
    record(&held, (uintptr_t)p, new_span, meta.prot, meta.flags, MD_OP_mremap,
           origin, stack);
    unlock_set(&held);
  }
  if (new_span > old_span)
    md_threshold_grew(new_span - old_span, true);
  else
    md_threshold_shrank();
  return p;
}

/* ---- the runtime's own calls, and inert copies ---------------------------- */

static void *own_mmap(void *addr, size_t len, int prot, int flags, int fd,
                      off_t off) {
  void *p = sys_mmap(addr, len, prot, flags, fd, off);
  if (p != MAP_FAILED && md_copy_role == MD_COPY_ACTIVE) {
    if (prot != PROT_NONE && in_reservation((uintptr_t)p, len))
      __atomic_fetch_add(&heap_committed, page_up(len), __ATOMIC_RELAXED);
    if (prot != PROT_NONE || !(flags & MAP_NORESERVE))
      md_threshold_grew(page_up(len), false);
  }
  return p;
}

/* The heap commits its reservation page by page, once each (primary.c). */
static int own_mprotect(void *addr, size_t len, int prot) {
  int r = sys_mprotect(addr, len, prot);
  if (r == 0 && prot != PROT_NONE && md_copy_role == MD_COPY_ACTIVE &&
      in_reservation((uintptr_t)addr, len)) {
    __atomic_fetch_add(&heap_committed, page_up(len), __ATOMIC_RELAXED);
    md_threshold_grew(page_up(len), false);
  } else if (r == 0 && prot != PROT_NONE && md_copy_role == MD_COPY_ACTIVE &&
             md_large_contains(addr)) {
    /* A large block's pages (secondary.c, pageguard.c count them). */
    md_threshold_grew(page_up(len), false);
  }
  return r;
}

#define SITE md_origin_site(site)
#define CALLER_PC __builtin_return_address(0)
#define CALLER md_origin_pc(CALLER_PC)

/* An inert copy (copies.c) passes an entry point's call on to the active
 * copy's, else makes it unchecked. */
#define INERT(NAME, ARGS, SITE_ARG, RAW)                                       \
  if (MD_UNLIKELY(!md_copy_active())) {                                        \
    if (md_forward.site_##NAME)                                                \
      return md_forward.site_##NAME ARGS_WITH(ARGS, SITE_ARG);                 \
    return RAW;                                                                \
  }
#define ARGS_WITH(ARGS, X) (UNPAREN ARGS, X)
#define UNPAREN(...) __VA_ARGS__

MD_EXPORT void *__mdebug_mmap(void *addr, size_t len, int prot, int flags,
                              int fd, off_t off,
                              const struct mdebug_site *site) {
  INERT(mmap, (addr, len, prot, flags, fd, off), site,
        sys_mmap(addr, len, prot, flags, fd, off));
  return mmap_impl(addr, len, prot, flags, fd, off, MD_OP_mmap, SITE);
}
MD_EXPORT void *__mdebug_mmap64(void *addr, size_t len, int prot, int flags,
                                int fd, off_t off,
                                const struct mdebug_site *site) {
  INERT(mmap64, (addr, len, prot, flags, fd, off), site,
        sys_mmap(addr, len, prot, flags, fd, off));
  return mmap_impl(addr, len, prot, flags, fd, off, MD_OP_mmap64, SITE);
}
MD_EXPORT int __mdebug_munmap(void *addr, size_t len,
                              const struct mdebug_site *site) {
  INERT(munmap, (addr, len), site, sys_munmap(addr, len));
  return munmap_impl(addr, len);
}
MD_EXPORT void *__mdebug_mremap(void *old, size_t old_size, size_t new_size,
                                int flags, void *to,
                                const struct mdebug_site *site) {
  INERT(mremap, (old, old_size, new_size, flags, to), site,
        sys_mremap(old, old_size, new_size, flags, to));
  return mremap_impl(old, old_size, new_size, flags, to, SITE);
}

MD_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd,
                     off_t off) {
  if (from_runtime(CALLER_PC))
    return own_mmap(addr, len, prot, flags, fd, off);
  INERT(mmap, (addr, len, prot, flags, fd, off),
        (const struct mdebug_site *)CALLER,
        sys_mmap(addr, len, prot, flags, fd, off));
  return mmap_impl(addr, len, prot, flags, fd, off, MD_OP_mmap, CALLER);
}
MD_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
                       off_t off) {
  if (from_runtime(CALLER_PC))
    return own_mmap(addr, len, prot, flags, fd, off);
  INERT(mmap64, (addr, len, prot, flags, fd, off),
        (const struct mdebug_site *)CALLER,
        sys_mmap(addr, len, prot, flags, fd, off));
  return mmap_impl(addr, len, prot, flags, fd, off, MD_OP_mmap64, CALLER);
}
MD_EXPORT int munmap(void *addr, size_t len) {
  if (from_runtime(CALLER_PC))
    return sys_munmap(addr, len);
  INERT(munmap, (addr, len), (const struct mdebug_site *)CALLER,
        sys_munmap(addr, len));
  return munmap_impl(addr, len);
}
/* glibc reads new_address only with MREMAP_FIXED; so do we. */
MD_EXPORT void *mremap(void *old, size_t old_size, size_t new_size, int flags,
                       ...) {
  void *to = NULL;
  if (flags & MREMAP_FIXED) {
    va_list ap;
    va_start(ap, flags);
    to = va_arg(ap, void *);
    va_end(ap);
  }
  if (from_runtime(CALLER_PC))
    return sys_mremap(old, old_size, new_size, flags, to);
  INERT(mremap, (old, old_size, new_size, flags, to),
        (const struct mdebug_site *)CALLER,
        sys_mremap(old, old_size, new_size, flags, to));
  return mremap_impl(old, old_size, new_size, flags, to, CALLER);
}
/* Not an entry point (no site is kept for a protection change); defined so
 * that the table knows each page's protection, which the leak scan reads
 * by. An inert copy makes the call unchecked. */
MD_EXPORT int mprotect(void *addr, size_t len, int prot) {
  if (from_runtime(CALLER_PC))
    return own_mprotect(addr, len, prot);
  if (MD_UNLIKELY(!md_copy_active()))
    return sys_mprotect(addr, len, prot);
  return mprotect_impl(addr, len, prot);
}

/* ---- reading the table --------------------------------------------------- */

static struct md_mapping view(const struct rec *r) {
  return (struct md_mapping){r->begin, r->end,   r->origin, r->stack,
                             r->group, r->prot,  r->flags,  r->op,
                             r->epoch, r->marks, r};
}

/* Each record once: in the shard of its first zone. Under that lock. */
static size_t collect_shard(unsigned i, struct md_mapping *out, size_t cap,
                            size_t n) {
  const struct shard *sh = &shards[i];
  for (uint32_t k = 0; k < sh->n; k++) {
    const struct rec *r = sh->v[k].r;
    if (shard_of(r->begin) != i)
      continue;
    if (n < cap)
      out[n] = view(r);
    n++;
  }
  return n;
}

size_t md_mmap_collect(struct md_mapping *out, size_t cap) {
  size_t n = 0;
  for (unsigned i = 0; i < SHARDS; i++) {
    md_lock(&shards[i].lock);
    n = collect_shard(i, out, cap, n);
    md_unlock(&shards[i].lock);
  }
  return n;
}

bool md_mmap_ignore(const void *p) {
  if (!md_mmap_tracking())
    return false;
  struct set held;
  lock_range(&held, (uintptr_t)p, (uintptr_t)p + 1);
  struct rec *r = holding((uintptr_t)p);
  if (r)
    r->marks |= MD_MAP_MARK_IGNORED;
  unlock_set(&held);
  return r != NULL;
}

size_t md_mmap_dropped(void) {
  return __atomic_load_n(&dropped, __ATOMIC_RELAXED);
}

/* ---- the leak scan: every shard locked before the world stops ------------ */

void md_mmap_scan_lock(void) {
  for (unsigned i = 0; i < SHARDS; i++)
    md_lock(&shards[i].lock);
}
void md_mmap_scan_unlock(void) {
  for (unsigned i = SHARDS; i-- > 0;)
    md_unlock(&shards[i].lock);
}
size_t md_mmap_scan_collect(struct md_mapping *out, size_t cap) {
  size_t n = 0;
  for (unsigned i = 0; i < SHARDS; i++)
    n = collect_shard(i, out, cap, n);
  return n;
}
void md_mmap_scan_mark(const struct md_mapping *m, uint8_t mark) {
  ((struct rec *)m->rec)->marks |= mark;
}

/* ---- fork: no shard may be held across it (lifecycle.def's mmap row) ----- */

void md_mmap_atfork_prepare(void) { md_mmap_scan_lock(); }
void md_mmap_atfork_parent(void) { md_mmap_scan_unlock(); }
void md_mmap_atfork_child(void) {
  for (unsigned i = 0; i < SHARDS; i++)
    md_lock_reset(&shards[i].lock);
}

size_t md_mapping_describe(char *buf, size_t size, uint16_t prot,
                           uint8_t flags) {
  return md_format(buf, size, "%c%c%c %s %s", (prot & PROT_READ) ? 'r' : '-',
                   (prot & PROT_WRITE) ? 'w' : '-',
                   (prot & PROT_EXEC) ? 'x' : '-',
                   (flags & MD_MAP_SHARED) ? "shared" : "private",
                   (flags & MD_MAP_ANON) ? "anonymous" : "file");
}
