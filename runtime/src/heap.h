/* heap.h - mdebug's own heap, and the block layout, drawn once. Every other
 * file reaches a block's parts only through what is declared here.
 *
 * The primary heap is one range of address space reserved at start-up
 * (PROT_NONE, MAP_NORESERVE), cut into 128 equal regions of 2^R bytes; region k
 * holds the blocks of size class k, and nothing else. Inside a region:
 *
 *   region start                                                region end
 *   |    | slot 0       | slot 1       | ... fresh ->   <- stacks | <- meta |    |
 *   [pg ][G][U.........][G][U.........][G] ...          [..s1 s0]  [..m1 m0][pg ]
 *             ^ user (+ lead for aligned blocks)
 *
 *   G  the guard area between two slots: the rear guard of the slot before
 *      and the front guard of the slot after (0xaa). G is front_guard
 *      rounded up to 16; 0 without a front guard.
 *   U  the class's usable size; a block of `size` bytes (plus expand_alloc)
 *      leaves U - size - expand bytes of slack, which are rear guard
 *      (0xbb, up to rear_guard bytes of it are written and checked). A
 *      block's class is chosen so that its slack and the next G together
 *      hold rear_guard bytes: rear guards cost only what G cannot hold, and
 *      often nothing, when the class's rounding leaves room anyway.
 *   meta  16 bytes a slot, out of the block, growing down from the region's
 *      end: who allocated and freed the block, its size and state.
 *   stacks  8 bytes a slot (allocation and free stack ids), a second array
 *      below the metadata, only when stacks are recorded.
 *   pg an inaccessible page: below the first slot, above the metadata, and
 *      (at least one) between the last slot and the arrays, so a stray write
 *      out of the slots faults before it can reach any metadata.
 *
 * So a pointer leads to its block by arithmetic alone: region = (p - base)
 * >> R, slot = offset / stride (a multiplication), metadata = region end -
 * 16 * (slot + 1). Nothing before the pointer is read, interior pointers
 * resolve to their block and offset, and the user's block holds only the
 * user's bytes and guards: an overflow can corrupt a neighbour's bytes and
 * guards, never the runtime's data.
 *
 * Slots are handed out from a region in order ("fresh"), committed
 * (mprotect) as the region grows; metadata of slots at or past `fresh` may
 * not be mapped and is never read. A slot's guard areas are written when
 * it is first handed out (so carved but unused slots leave their pages
 * untouched), and again after its pages went back to the OS. Free slots wait in
 * per-thread caches (tcache.c) and in each class's stacks (primary.c, one per
 * arena). Blocks larger than the largest class, or aligned beyond
 * MD_PRIMARY_MAX_ALIGN, come from the secondary (secondary.c): a span each,
 * with inaccessible pages around the block and the metadata in a page of its
 * own, cut from an arena in the large range, reserved right after the primary
 * range with page_guard's pool; checked accesses cover both ranges as one
 * (md_heap_covers).
 *
 * Never allocates through malloc; nothing here takes a lock.
 */
#ifndef MDEBUG_HEAP_H
#define MDEBUG_HEAP_H

#include "base.h"

/* Named bytes, as malloc debug uses them. */
#define MD_FILL_ALLOC 0xeb
#define MD_FILL_FREE 0xef
#define MD_GUARD_FRONT 0xaa
#define MD_GUARD_REAR 0xbb

#define MD_CLASS_COUNT 88        /* classes 1..88; 0 names no class */
#define MD_REGION_COUNT 128      /* regions 1..88 used; a power of two */
#define MD_PRIMARY_MAX ((size_t)128 << 10) /* the largest class's U */
#define MD_PRIMARY_MAX_ALIGN 4096 /* lead is 8 bits of 16-byte units */
#define MD_MAX_SIZE (((size_t)1 << 47) - 1) /* max_allocation_size's cap */
/* max_allocation_size's default: AddressSanitizer's (kMaxAllowedMallocSize
 * on x86_64). Far above any real machine's memory, so it refuses only
 * sizes that are bugs (a negative int made size_t, a wrapped product), yet
 * a sparse calloc of a few GiB still works as it does with glibc. */
#define MD_DEFAULT_MAX_ALLOCATION ((size_t)1 << 40)

/* A block's state, in its metadata. */
enum md_state {
  MD_STATE_NEVER = 0,       /* never handed out (fresh metadata is zero) */
  MD_STATE_LIVE = 1,        /* allocated */
  MD_STATE_QUARANTINED = 2, /* freed, held by free_track */
  MD_STATE_FREED = 3,       /* freed, reusable; still known as freed */
};

/* Marks, in a block's metadata. */
enum md_mark {
  MD_MARK_IGNORED = 1,  /* mdebug_ignore(): never a leak, scanned as a root */
  MD_MARK_REPORTED = 2, /* already reported as leaked */
  MD_MARK_RELEASED = 4, /* free, and its pages went back to the OS: its
                           guard areas must be written again on reuse */
  MD_MARK_SHARED = 8,   /* free, in one of its class's stacks (not in a
                           thread's cache): the release pass may take it.
                           Set only during a pass (primary.c) */
  /* Live blocks only (shares its bit with RELEASED, which only free blocks
   * carry; a free clears the marks): tracked in full by the profiler's
   * sampling (stack, time, thread). */
  MD_MARK_SAMPLED = 4,
  /* Free blocks only (shares its bit with IGNORED, which only live blocks
   * carry): idle in the shared stack, during a release pass. */
  MD_MARK_IDLE = 1,
};

/* The metadata of one block: 16 bytes. The word `bits` is written last
 * (release) when a block changes state, and a free changes it with one
 * compare-and-swap: of two racing frees, one is the double free. */
struct md_meta {
  uint32_t alloc_origin; /* origin ids (origin.c); 0: unknown */
  uint32_t free_origin;  /* 0 while live, but for a block the profiler
                            tracks (MD_MARK_SAMPLED): its record (sample.c) */
  uint32_t size;         /* requested size, without expand_alloc */
  uint32_t bits;         /* state 2, alloc op 6, free op 6, epoch 6, marks 4,
                            lead 8 (aligned blocks: user - slot user area,
                            in 16-byte units). While a block from aligned
                            operator new is live, the free op's field holds
                            log2 of the alignment it asked for (0 for every
                            other live block) */
};
_Static_assert(sizeof(struct md_meta) == 16, "metadata is 16 bytes a block");

#define MD_BITS_STATE(b) ((b)&3u)
#define MD_BITS_ALLOC_OP(b) (((b) >> 2) & 63u)
#define MD_BITS_FREE_OP(b) (((b) >> 8) & 63u)
#define MD_BITS_ALIGN_LOG(b) MD_BITS_FREE_OP(b) /* live blocks only */
#define MD_BITS_EPOCH(b) (((b) >> 14) & 63u)
#define MD_BITS_MARKS(b) (((b) >> 20) & 15u)
#define MD_BITS_LEAD(b) (((b) >> 24) & 255u)
#define MD_BITS_MAKE(state, aop, fop, epoch, marks, lead)                      \
  ((uint32_t)(state) | ((uint32_t)(aop) << 2) | ((uint32_t)(fop) << 8) |       \
   ((uint32_t)((epoch)&63u) << 14) | ((uint32_t)(marks) << 20) |               \
   ((uint32_t)(lead) << 24))
/* What a block from aligned operator new keeps of the alignment it asked
 * for (MD_BITS_ALIGN_LOG): aligned operator delete checks its own against
 * it. */
static inline unsigned md_align_log(size_t align) {
  return align ? (unsigned)__builtin_ctzll(align) : 0;
}
#define MD_BITS_MARK_SHIFT 20
#define MD_EPOCH_MASK 63u

/* A block's size and bits, stored as one word (release: the block is
 * complete before anything sees the new bits); the size again, when it was
 * stored before for those that read it from the metadata meanwhile (the
 * profiler's hook). Checked accesses read the two as that word (access.h:
 * an answer's word); a load cannot take its bytes from two pending 4-byte
 * stores and waits until they reach the cache, which cost 1.6-3% of Lua's
 * run time with checked accesses while the allocator stored them apart. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
                   __builtin_offsetof(struct md_meta, bits) ==
                       __builtin_offsetof(struct md_meta, size) + 4,
               "size and bits form one word, size in its low half");
/* The word's type may alias the two 4-byte fields it covers: later reads
 * of m->size or m->bits in the same function see this store. */
typedef uint64_t md_meta_word __attribute__((may_alias));
static inline void md_meta_publish(struct md_meta *m, uint32_t size,
                                   uint32_t bits) {
  __atomic_store_n((md_meta_word *)(void *)&m->size,
                   (uint64_t)bits << 32 | size, __ATOMIC_RELEASE);
}

/* The stack ids of a block, when stacks are recorded. */
struct md_stacks {
  uint32_t alloc_stack; /* depot ids (depot.c); 0: none recorded */
  uint32_t free_stack;
};

/* Per class, fixed at init (read-only afterwards). */
struct md_class_info {
  uint32_t size;   /* U: usable bytes of a slot */
  uint32_t stride; /* G + U */
  uint64_t magic;  /* UINT64_MAX / stride + 1: offset / stride by multiply */
  uint32_t max_slots;
  uint32_t cache_max; /* a thread cache's capacity for this class */
  uintptr_t start;    /* the region's start. Never a block's address: this
                         table is in the runtime's data, which the leak scan
                         reads as a root. */
  uint32_t first;     /* slot 0 (its guard area) from start: an inaccessible
                         page, then the class's colour (see heap.c) */
  uintptr_t meta_end; /* a page below the region's end: metadata of slot i
                         ends at -16 * i */
  uintptr_t stacks_end; /* end of the stack id array (when recorded) */
};

/* The heap's geometry, fixed at init. */
struct md_heap {
  size_t max_size;  /* the largest request granted (max_allocation_size);
                       larger ones are refused (refuse.c) */
  uintptr_t base;   /* of the reserved range; region k at base + (k << R) */
  size_t size;      /* MD_REGION_COUNT << region_shift */
  unsigned region_shift; /* R */
  bool reserved;    /* the range is reserved (else: mapped as it grows) */
  size_t guard;     /* G */
  size_t front_guard, rear_guard; /* the options, as given (bytes checked) */
  size_t expand;    /* expand_alloc */
  size_t extra;     /* bytes a block asks its class for beyond its own:
                       expand_alloc, and the rear guard G cannot hold */
  bool stacks;      /* the stack id array exists */
  struct md_class_info classes[MD_CLASS_COUNT + 1];
  /* fresh[k]: slots handed out from region k so far; slots at or past it
   * have no metadata. Grows only; read with acquire. */
  uint32_t fresh[MD_CLASS_COUNT + 1];
  /* The large range, reserved with the primary range and right after it
   * (large_base == base + size): page_guard's pool, then the secondary's
   * arena. Checked accesses cover [base, large_base + large_size), so that
   * a pointer outside every heap range still lies on one of two sides.
   * large_size is 0 when it could not be reserved (large blocks then get
   * mappings anywhere, and are not checked). */
  uintptr_t large_base;
  size_t large_size;
};
extern struct md_heap md_heap MD_HIDDEN;

/* ---- size classes -------------------------------------------------------- */

/* The class of a block needing n usable bytes (1 <= n <= MD_PRIMARY_MAX):
 * 16-byte steps to 128, then eight classes per power of two (a block
 * wastes at most 1/8 of its slot; sizes just past a power of two, common in
 * programs that add a header to a power-of-two buffer, waste no more). */
static inline unsigned md_size_class(size_t n) {
  if (n <= 128)
    return n ? (unsigned)((n + 15) >> 4) : 1;
  unsigned p = 63 - (unsigned)__builtin_clzll(n - 1); /* n in (2^p, 2^p+1] */
  return 9 + (p - 7) * 8 + (unsigned)(((n - 1) >> (p - 3)) & 7);
}
/* U of class k (1..MD_CLASS_COUNT), computed (tests check the table). */
static inline size_t md_class_size(unsigned k) {
  if (k <= 8)
    return (size_t)k * 16;
  unsigned g = (k - 9) / 8, s = (k - 9) % 8;
  return ((size_t)128 << g) + (((size_t)16 << g) * (s + 1));
}

/* ---- from a pointer to its block ----------------------------------------- */

static inline bool md_primary_contains(const void *p) {
  return (uintptr_t)p - md_heap.base < md_heap.size;
}
/* Bytes of the large range accessible now (large blocks' pages, their
 * headers): vm_threshold leaves the rest of the reservation out. */
extern size_t md_heap_large_committed MD_HIDDEN;
/* Bytes of small blocks' slots the primary heap ever committed (its high
 * water; primary.c): the size of the program's heap of small blocks. */
extern size_t md_heap_small_committed MD_HIDDEN;
/* In the large range (page_guard's pool, the secondary's arena)? */
static inline bool md_large_contains(const void *p) {
  return (uintptr_t)p - md_heap.large_base < md_heap.large_size;
}
/* In the range checked accesses cover: the primary range or the large
 * range after it. */
static inline bool md_heap_covers(const void *p) {
  return (uintptr_t)p - md_heap.base < md_heap.size + md_heap.large_size;
}
/* The region (class) of a pointer in the primary range; 0 if none. */
static inline unsigned md_region_of(const void *p) {
  unsigned k = (unsigned)(((uintptr_t)p - md_heap.base) >> md_heap.region_shift);
  return k <= MD_CLASS_COUNT ? k : 0;
}
static inline uint32_t md_slot_of(unsigned k, const void *p, uint32_t *within) {
  const struct md_class_info *c = &md_heap.classes[k];
  uint32_t off = (uint32_t)((uintptr_t)p - c->start - c->first);
  uint32_t i = (uint32_t)(((unsigned __int128)c->magic * off) >> 64);
  *within = off - i * c->stride;
  return i;
}
static inline struct md_meta *md_meta_at(unsigned k, uint32_t i) {
  return (struct md_meta *)(md_heap.classes[k].meta_end) - (i + 1);
}
static inline struct md_stacks *md_stacks_at(unsigned k, uint32_t i) {
  return (struct md_stacks *)(md_heap.classes[k].stacks_end) - (i + 1);
}
/* Start of slot i's usable area (the block's bytes when lead is 0). */
static inline unsigned char *md_slot_user(unsigned k, uint32_t i) {
  const struct md_class_info *c = &md_heap.classes[k];
  return (unsigned char *)(c->start + c->first + (uintptr_t)i * c->stride +
                           md_heap.guard);
}
static inline uint32_t md_fresh(unsigned k) {
  return __atomic_load_n(&md_heap.fresh[k], __ATOMIC_ACQUIRE);
}

/* The guard area in front of slot i: rear guard bytes (0xbb) first, then the
 * last front_guard bytes front guard (0xaa), so a configuration with rear
 * guards only reads as malloc debug's rear guards. */
static inline size_t md_area_rear_part(void) {
  return md_heap.guard - md_heap.front_guard;
}
static inline void md_heap_write_area(unsigned k, uint32_t i) {
  unsigned char *area = md_slot_user(k, i) - md_heap.guard;
  __builtin_memset(area, MD_GUARD_REAR, md_area_rear_part());
  __builtin_memset(area + md_area_rear_part(), MD_GUARD_FRONT,
                   md_heap.front_guard);
}

/* A block, as the checks see it: wherever it lives. */
struct md_block {
  struct md_meta *meta;
  struct md_stacks *stacks; /* NULL when stacks are not recorded */
  unsigned char *user;      /* the pointer the program has */
  size_t size;              /* requested (meta->size, or the secondary's) */
  size_t room;              /* bytes from user to the end of its area */
  unsigned klass;           /* 0: a secondary block */
  uint32_t index;           /* slot index (primary) */
  unsigned lead;            /* primary: (user - slot's area) / 16 */
};

enum md_lookup {
  MD_NOT_OURS,  /* not in mdebug's heap */
  MD_IN_HEAP,   /* in the heap, but in no block (a guard, a free slot) */
  MD_BLOCK,     /* the start of a block (any state but never-used) */
  MD_INTERIOR,  /* inside a block, past its start */
};
/* Finds the block holding p (heap.c). For MD_IN_HEAP, b describes the
 * nearest slot when there is one (b->meta NULL otherwise). */
enum md_lookup md_heap_find(const void *p, struct md_block *b) MD_HIDDEN;
/* The block nearest to p when p lies in memory of mdebug's heap (a slot, a
 * guard page, a large block's mapping, a region's unused part: the last
 * block used below it); false otherwise. For a fatal signal's handler:
 * waits on no lock. */
bool md_heap_near(const void *p, struct md_block *b) MD_HIDDEN;
/* The large block starting exactly at p (not in the primary range). */
bool md_heap_find_large(const void *p, struct md_block *b) MD_HIDDEN;
/* For p in the large range: the block whose span (the secondary's: its
 * header page, inaccessible pages and bytes) or page_guard slot holds p,
 * or the nearest of the slot's and the one's before it, in any state but
 * never used (a released large block stays known as freed until its span
 * is reused). Takes no lock; for checked accesses, which may run anywhere. */
bool md_heap_large_slot(const void *p, struct md_block *b) MD_HIDDEN;
/* The view of slot i of class k (its metadata must exist: i < fresh). */
void md_heap_block_at(unsigned k, uint32_t i, struct md_block *b) MD_HIDDEN;
/* b's metadata says more than its slot holds (a size past it, a lead past
 * it): the program wrote into a metadata array. Reported once for the
 * block, and b and its metadata are made to fit the slot, so that nothing
 * reads or writes past it. Not while threads are stopped: `quiet`. */
void md_heap_meta_damaged_at(struct md_block *b, bool quiet) MD_HIDDEN
    __attribute__((cold));
#define md_heap_meta_damaged(b) md_heap_meta_damaged_at((b), false)
/* The heap's reports about its own records (heap_report.c): the one
 * contract by which the heap calls up into the reports (layers.txt). b's
 * metadata said `said` bytes, its slot holds `fits` (bits: its word); a
 * large block's header, at `header`, failed its check `when`. */
void md_heap_report_damaged(const struct md_block *b, size_t said,
                            size_t fits, uint32_t bits) MD_HIDDEN
    __attribute__((cold));
void md_heap_report_header(uintptr_t user, const void *header,
                           const char *when) MD_HIDDEN __attribute__((cold));

static inline enum md_state md_block_state(const struct md_block *b) {
  return (enum md_state)MD_BITS_STATE(
      __atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE));
}
static inline size_t md_block_usable(const struct md_block *b) {
  return b->size + md_heap.expand;
}
/* md_block_front_guard of a klass 0 block (page_guard's or the
 * secondary's: heap.c tells which). */
unsigned char *md_heap_large_front_guard(const struct md_block *b, size_t *n)
    MD_HIDDEN;
/* Front guard: the front_guard bytes before the block (in the guard area
 * and, for an aligned block, its lead), or what a large block has of them. */
static inline unsigned char *md_block_front_guard(const struct md_block *b,
                                                  size_t *n) {
  if (MD_UNLIKELY(!b->klass))
    return md_heap_large_front_guard(b, n);
  *n = md_heap.front_guard;
  return b->user - *n;
}
/* Rear guard: slack, then (primary) the next slot's guard area, up to
 * rear_guard bytes; *slack says how many of them are slack (0xbb), the
 * rest lie in the guard area (see md_heap_write_area). A large block's
 * rear guard stops at its inaccessible page. */
static inline unsigned char *md_block_rear_guard(const struct md_block *b,
                                                 size_t *n, size_t *slack) {
  size_t usable = md_block_usable(b), after = b->room - usable;
  *n = md_heap.rear_guard;
  if (MD_UNLIKELY(!b->klass) && *n > after)
    *n = after;
  *slack = after < *n ? after : *n;
  return b->user + usable;
}

/* ---- heap.c: the interface the checked allocator uses -------------------- */

/* Reserves the range and fixes the geometry from the options; false (with
 * the reason logged) when not even a small heap can be reserved. */
bool md_heap_init(void) MD_HIDDEN;
/* ---- the fast paths: a thread's cache (tcache.c) --------------------------- */

#define MD_BIN_SLOTS 64
struct md_bin {
  uint32_t count, max; /* max: the class's capacity, less while the thread
                          only frees blocks of the class (tcache.c) */
  uint32_t refills;    /* since the bin last overflowed (saturates) */
  uint32_t slots[MD_BIN_SLOTS]; /* free slot indices, the last freed on top */
};
struct md_tcache {
  struct md_bin bins[MD_CLASS_COUNT + 1];
  unsigned arena; /* where its bins refill from and drain to (primary.c) */
  struct md_tcache *next_free; /* the pool */
  struct md_tcache *next_all;
};
/* This thread's cache; NULL before its first call and after it exits. */
extern __thread struct md_tcache *md_tcache_self
    __attribute__((tls_model("initial-exec"))) MD_HIDDEN;

/* The view of slot i of class k for a new block at lead 0. */
static inline void md_heap_new_block(unsigned k, uint32_t i, size_t size,
                                     struct md_block *b) {
  b->meta = md_meta_at(k, i);
  b->stacks = md_heap.stacks ? md_stacks_at(k, i) : NULL;
  b->user = md_slot_user(k, i);
  b->size = size;
  b->room = md_heap.classes[k].size;
  b->klass = k;
  b->index = i;
  b->lead = 0;
}

bool md_heap_take_slow(size_t size, size_t align, struct md_block *b) MD_HIDDEN;
void md_heap_give_slow(const struct md_block *b) MD_HIDDEN;

/* page_guard (pageguard.c): allocations this thread makes before the next
 * one is offered to md_heap_take_guarded (heap.c, which asks pageguard.c),
 * which takes it (a block on pages of its own: true) or not, and sets the
 * next countdown (2^64-1 when page_guard is off). origin: the allocation's
 * site (page_guard_site). */
extern __thread uint64_t md_pageguard_countdown
    __attribute__((tls_model("initial-exec"))) MD_HIDDEN;
bool md_heap_take_guarded(size_t size, size_t align, md_origin_t origin,
                          struct md_block *b) MD_HIDDEN;

/* A free slot for `size` bytes (plus the heap's extra) aligned to align
 * (<= 16: no more than malloc's), from this thread's cache: slot *i of
 * class *k, at lead 0, its metadata still saying what it said (the caller
 * writes it, `bits` last). false: nothing taken; md_heap_take_slow then
 * decides everything, the cache included, and fills a struct md_block (or
 * false, errno ENOMEM, when there is no memory). page_guard's countdown
 * comes first, and is the caller's (alloc.h's md_alloc_fast). */
static MD_ALWAYS_INLINE bool md_heap_take_cached(size_t size, size_t align,
                                                 unsigned *k, uint32_t *i) {
  size_t need = size + md_heap.extra;
  /* need - 1: a request of 0 bytes wraps around to the slow path. */
  if (MD_LIKELY(align <= MD_MIN_ALIGN && need - 1 < MD_PRIMARY_MAX)) {
    unsigned kk = md_size_class(need);
    struct md_tcache *c = md_tcache_self;
    if (MD_LIKELY(c != NULL)) {
      struct md_bin *bin = &c->bins[kk];
      if (MD_LIKELY(bin->count)) {
        *k = kk;
        *i = bin->slots[--bin->count];
        return true;
      }
    }
  }
  return false;
}

void md_heap_give_slot_slow(unsigned k, uint32_t i) MD_HIDDEN;

/* Puts slot i of class k in this thread's cache, if it has room. */
static MD_ALWAYS_INLINE bool md_tcache_put(unsigned k, uint32_t i) {
  struct md_tcache *c = md_tcache_self;
  if (MD_LIKELY(c != NULL)) {
    struct md_bin *bin = &c->bins[k];
    if (MD_LIKELY(bin->count < bin->max)) {
      bin->slots[bin->count++] = i;
      return true;
    }
  }
  return false;
}

/* Gives slot i of class k (state already FREED) back for reuse. */
static MD_ALWAYS_INLINE void md_heap_give_slot(unsigned k, uint32_t i) {
  if (!md_tcache_put(k, i))
    md_heap_give_slot_slow(k, i);
}

/* md_heap_give_slot for a free, which must not change errno: only the slow
 * path (a batch back to the class, which may make system calls) can. */
void md_heap_give_slot_slow_keep_errno(unsigned k, uint32_t i) MD_HIDDEN;
static MD_ALWAYS_INLINE void md_heap_give_slot_keep_errno(unsigned k,
                                                         uint32_t i) {
  if (!md_tcache_put(k, i))
    md_heap_give_slot_slow_keep_errno(k, i);
}

/* Gives a block (state already FREED) back for reuse. */
static MD_ALWAYS_INLINE void md_heap_give(const struct md_block *b) {
  if (MD_LIKELY(b->klass))
    md_heap_give_slot(b->klass, b->index);
  else
    md_heap_give_slow(b);
}

/* The common case of md_heap_resolve, for free's fast path: p is the start
 * of a live primary block at lead 0 whose metadata is sound (its size fits
 * its slot). Its class, slot and metadata in *k, *i, *m, its size and bits in
 * *size and *bits;
 * false for anything else (md_heap_resolve then tells what p is). */
static MD_ALWAYS_INLINE bool md_heap_resolve_plain(const void *p, unsigned *k,
                                                   uint32_t *i,
                                                   struct md_meta **m,
                                                   uint32_t *size,
                                                   uint32_t *bits) {
  if (MD_UNLIKELY(!md_primary_contains(p)))
    return false;
  unsigned kk = md_region_of(p);
  uint32_t within;
  if (MD_UNLIKELY(!kk))
    return false;
  uint32_t ii = md_slot_of(kk, p, &within);
  if (MD_UNLIKELY(ii >= md_fresh(kk) || within != md_heap.guard))
    return false;
  struct md_meta *mm = md_meta_at(kk, ii);
  /* One load for size and bits (the word md_meta_publish stores). */
  uint64_t w = __atomic_load_n((md_meta_word *)(void *)&mm->size,
                               __ATOMIC_ACQUIRE);
  uint32_t v = (uint32_t)(w >> 32);
  if (MD_UNLIKELY((v & (255u << 24 | 3u)) != MD_STATE_LIVE || /* lead 0 */
                  (uint32_t)w + md_heap.expand > md_heap.classes[kk].size))
    return false;
  *k = kk;
  *i = ii;
  *m = mm;
  *size = (uint32_t)w;
  *bits = v;
  return true;
}

/* The block p starts, if p is the start of a block in any state but never
 * used, with its bits in *bits: arithmetic for the primary heap, a hash
 * lookup for large blocks. Reads nothing before p. */
static MD_ALWAYS_INLINE bool md_heap_resolve(const void *p, struct md_block *b,
                                             uint32_t *bits) {
  if (MD_LIKELY(md_primary_contains(p))) {
    unsigned k = md_region_of(p);
    uint32_t within;
    if (MD_UNLIKELY(!k))
      return false;
    uint32_t i = md_slot_of(k, p, &within);
    if (MD_UNLIKELY(i >= md_fresh(k)))
      return false;
    struct md_meta *m = md_meta_at(k, i);
    uint32_t v = __atomic_load_n(&m->bits, __ATOMIC_ACQUIRE);
    if (MD_UNLIKELY(within != md_heap.guard + MD_BITS_LEAD(v) * 16 ||
                    MD_BITS_STATE(v) == MD_STATE_NEVER))
      return false;
    b->meta = m;
    b->stacks = md_heap.stacks ? md_stacks_at(k, i) : NULL;
    b->user = (unsigned char *)p;
    b->size = m->size;
    b->room = md_heap.classes[k].size - MD_BITS_LEAD(v) * 16;
    b->klass = k;
    b->index = i;
    b->lead = MD_BITS_LEAD(v);
    *bits = v;
    /* A size past the slot: the program wrote into the metadata array. */
    if (MD_UNLIKELY(b->size + md_heap.expand > b->room))
      md_heap_meta_damaged(b);
    return true;
  }
  if (!md_heap_find_large(p, b))
    return false;
  *bits = __atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE);
  return MD_BITS_STATE(*bits) != MD_STATE_NEVER;
}

/* free_track: a large (secondary) block's pages become inaccessible and
 * empty while it is quarantined (any access faults); nothing for other
 * blocks. For the large blocks md_heap_quarantine_keep does not keep. */
void md_heap_protect_freed(const struct md_block *b) MD_HIDDEN;
/* The most a quarantined large block may keep resident: the quarantine's
 * ring notes it in 16 bits of pages. */
#define MD_QUARANTINE_KEEP_MAX ((size_t)0xffff << 12)
/* For a large block (klass 0) about to be quarantined: the bytes of pages
 * it keeps (counted against `budget`, free_track_bytes): it is then
 * filled and checked as a small block is, and its span reused without a
 * fault or a system call when it leaves. 0 when its pages are to be made
 * inaccessible and given back to the OS instead (md_heap_protect_freed):
 * page_guard's blocks, blocks over the budget, or no budget at all
 * (free_track_bytes=0 holds blocks by count alone), or over the bound on
 * freed large blocks' resident pages (secondary.c) unless `first`: the
 * calling thread's quarantine keeps no other large block, and one block a
 * thread may go past the bound (its churned block keeps its pages). */
size_t md_heap_quarantine_keep(const struct md_block *b, size_t budget,
                               bool first) MD_HIDDEN;
/* calloc of a large block: zeroes it if its pages held another block's
 * bytes (a reused span); a fresh span is zero already. */
void md_heap_zero_large(const struct md_block *b) MD_HIDDEN;
/* The program is about to map over (mmap MAP_FIXED), unmap or move
 * (mremap) [lo, hi): large blocks' spans there become the program's for
 * good (mmap.c, before the system call). Cheap for ranges far from the
 * heap. */
void md_heap_mapped_over(uintptr_t lo, uintptr_t hi) MD_HIDDEN;
/* Is p in the large range, in a span the program took over
 * (md_heap_mapped_over)? Its bounds in *lo, *hi: not heap. Takes no lock. */
bool md_heap_large_given(const void *p, uintptr_t *lo, uintptr_t *hi)
    MD_HIDDEN;
/* Calls fn for every block whose state is in `states` (a bit mask of
 * 1 << enum md_state). Safe while other threads run: metadata is never
 * unmapped; a block changing state meanwhile may be seen in either state. */
void md_heap_for_each(unsigned states,
                      void (*fn)(const struct md_block *b, void *arg),
                      void *arg) MD_HIDDEN;
/* The leak scan reads the large blocks' table with the world stopped:
 * lock it before stopping (no stopped thread can then hold it), unlock
 * after resuming. In between, count and walk it without locking. Defined
 * by the facade (heap.c) over page_guard's pool and the secondary's table;
 * scan_heap.c turns them into the scan's nodes. */
void md_heap_scan_lock(void) MD_HIDDEN;
void md_heap_scan_unlock(void) MD_HIDDEN;
void md_heap_scan_large_count(size_t *blocks, size_t *bytes) MD_HIDDEN;
void md_heap_scan_large(unsigned states,
                        void (*fn)(const struct md_block *b, void *arg),
                        void *arg) MD_HIDDEN;
struct md_heap_stats {
  size_t live_blocks, live_bytes;   /* requested bytes */
  size_t live_footprint; /* what live blocks take: slots and guard areas,
                            metadata, large blocks' mappings */
  size_t quarantined_blocks, quarantined_bytes;
  size_t free_blocks;               /* freed or fresh-but-carved slots */
  size_t committed;                 /* primary bytes committed */
  size_t released;                  /* bytes given back to the OS so far */
  size_t secondary_blocks, secondary_bytes; /* mapped */
};
void md_heap_stats(struct md_heap_stats *st) MD_HIDDEN;
/* Gives whole free pages back to the OS now (malloc_trim); returns the
 * bytes released. */
size_t md_heap_release_all(void) MD_HIDDEN;
/* Fork: each part of the heap is a row of lifecycle.def (tcache, primary,
 * secondary; secondary.c's take pageguard.c's locks too). */
void md_tcache_atfork_prepare(void) MD_HIDDEN;
void md_tcache_atfork_parent(void) MD_HIDDEN;
void md_tcache_atfork_child(void) MD_HIDDEN;
void md_primary_atfork_prepare(void) MD_HIDDEN;
void md_primary_atfork_parent(void) MD_HIDDEN;
void md_primary_atfork_child(void) MD_HIDDEN;
void md_secondary_atfork_prepare(void) MD_HIDDEN;
void md_secondary_atfork_parent(void) MD_HIDDEN;
void md_secondary_atfork_child(void) MD_HIDDEN;
void md_pageguard_atfork_prepare(void) MD_HIDDEN;
void md_pageguard_atfork_parent(void) MD_HIDDEN;
void md_pageguard_atfork_child(void) MD_HIDDEN;

/* True when p[0..n) all hold `byte`: word compares (overlapping at the
 * ends) with no early exit, for guard and fill checks on the fast path. */
static inline bool md_bytes_all(const unsigned char *p, size_t n,
                                unsigned char byte) {
  uint64_t w8 = 0x0101010101010101ull * byte, acc = 0, x;
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      __builtin_memcpy(&x, p + i, 8);
      acc |= x ^ w8;
    }
    __builtin_memcpy(&x, p + n - 8, 8);
    return (acc | (x ^ w8)) == 0;
  }
  if (n >= 4) {
    uint32_t a, b, w4 = (uint32_t)w8;
    __builtin_memcpy(&a, p, 4);
    __builtin_memcpy(&b, p + n - 4, 4);
    return ((a ^ w4) | (b ^ w4)) == 0;
  }
  for (size_t i = 0; i < n; i++)
    acc |= p[i] ^ byte;
  return acc == 0;
}

/* Whether a block's guards are intact, in any geometry (see below). */
static inline bool md_block_guards_intact_any(const struct md_block *b) {
  size_t n, slack;
  const unsigned char *g = md_block_front_guard(b, &n);
  if (!md_bytes_all(g, n, MD_GUARD_FRONT))
    return false;
  g = md_block_rear_guard(b, &n, &slack);
  if (!md_bytes_all(g, slack, MD_GUARD_REAR))
    return false;
  if (!b->klass || n == slack)
    return true;
  /* The rest lies in the next guard area: its rear part first. */
  size_t r = md_area_rear_part() < n - slack ? md_area_rear_part() : n - slack;
  return md_bytes_all(g + slack, r, MD_GUARD_REAR) &&
         md_bytes_all(g + slack + r, n - slack - r, MD_GUARD_FRONT);
}

/* Whether a block's guards are intact (the check on every free; only a
 * damaged block goes on to guard.c, which reports). The defaults' geometry
 * (no front guard, an 8-byte rear guard all in the slot's own slack: a
 * primary block always has rear_guard bytes after it then, md_heap.extra)
 * is one load and a compare, inline; the rest goes the general way. */
static MD_ALWAYS_INLINE bool md_block_guards_intact(const struct md_block *b) {
  if (MD_LIKELY(b->klass != 0 && md_heap.front_guard == 0 &&
                md_heap.rear_guard == 8)) {
    size_t usable = md_block_usable(b);
    if (MD_LIKELY(b->room - usable >= 8)) {
      uint64_t x;
      __builtin_memcpy(&x, b->user + usable, 8);
      return x == 0x0101010101010101ull * MD_GUARD_REAR;
    }
  }
  return md_block_guards_intact_any(b);
}

/* memset for the few bytes of a guard: overlapping word stores. */
static inline void md_fill_bytes(unsigned char *p, size_t n, unsigned char byte) {
  uint64_t w8 = 0x0101010101010101ull * byte;
  if (n >= 8 && n <= 16) {
    __builtin_memcpy(p, &w8, 8);
    __builtin_memcpy(p + n - 8, &w8, 8);
  } else if (n > 16) {
    __builtin_memset(p, byte, n);
  } else {
    for (size_t i = 0; i < n; i++)
      p[i] = byte;
  }
}

#endif
