/* secondary.c - blocks too large for a size class, or aligned beyond what a
 * slot can offer: each gets a span of pages of its own.
 *
 *   [header page][no access][front slack | block | rear slack][no access]
 *                            ^ data       ^ user               ^ data + room
 *
 * The block sits at the end of its pages (rounded to its alignment), so a
 * write past its end reaches the inaccessible page at once; one before it
 * crosses the front slack (guard bytes) to the other. The header, with the
 * block's metadata, is in a page of its own: the block's bytes can never
 * reach it. A hash table (user pointer -> header, with the entry's flags)
 * finds a block from the pointer the program has without reading anything
 * before it; it is guarded by one lock, taken only by large allocations
 * and frees, which also make every system call on a span's pages under it
 * (the kernel serialises mprotect and mmap on its own lock anyway).
 *
 * The header is not trusted. A stray write before a block (8 KiB before it
 * lands in its header page) must never make mdebug unmap or protect pages
 * that are not the block's: the header's geometry carries a check word (a
 * keyed hash of every field that decides a system call, as Scudo's chunk
 * header checksum), verified before each use; a header that fails it is
 * reported as a corruption (MD_ERR_METADATA_CORRUPTED) and its span is left
 * alone for good. What must stay true even then lives out of the spans: the
 * table's entries (key, flags), the arena's map (which span holds a
 * granule, its order, whether it is free or the program's), the cache's
 * array.
 *
 * The arena. Spans (a block's pages, header and inaccessible pages) are cut
 * from an arena in the heap's large range (heap.h), so that checked
 * accesses cover large blocks: a map of the arena, one word per 1 MiB
 * granule (4 MiB for the 1 TiB arena: a finer map would count against
 * vm_threshold), names the span holding any address, and the span's first page
 * is its header, so an interior pointer leads to its block without the
 * lock (md_heap_large_slot). A span is a power of two of granules (address
 * space only: what lies past the block stays inaccessible and uncommitted)
 * and is never unmapped. Without an arena (no large range was reserved) or
 * when it is full, a block gets a mapping of its own anywhere, unchecked by
 * checked accesses; a large alignment's slack is unmapped from it at once,
 * so that a posix_memalign(2^40) block holds a few pages, not a terabyte.
 *
 * Reuse. A freed block's span (after the quarantine, when free_track holds
 * it) keeps its pages in a cache of recently freed spans (Scudo's secondary
 * cache, glibc's dynamic mmap threshold), as a freed small block keeps its
 * slot: the next block of the span's order takes it with no page fault, and
 * with no system call at all when it opens the same pages (a 200 KB block
 * allocated, filled and freed in a loop ran 60x slower than with glibc: a
 * fresh span costs a fault and a zeroed page per page, and each mprotect
 * of its pages as much as the loop itself). The cache is bounded
 * (CACHE_ENTRIES spans, CACHE_BYTES of pages) and, with the quarantine's
 * kept blocks (md_secondary_keep), by a share of the live large bytes
 * (FREED_FLOOR_*, FREED_SHARE: no clock, checked at each free), and what
 * it learns from a program that takes again the spans it gave back
 * (CHURN_MAX): a span over the bound goes back to the OS, oldest first;
 * its pages are replaced by
 * empty inaccessible ones and the span waits, header page readable, in its
 * order's free list, until a block takes it again. A span in the cache or
 * a free list keeps its freed block's metadata in its header (a thread's
 * cache of checked accesses may still hold the block's answer, whose word
 * is there; an access through a dangling pointer is still named as a use
 * after free) until reused. A reused span's pages hold its old bytes:
 * calloc zeroes them (md_secondary_zero), where a fresh or released span
 * is zero already.
 *
 * The program's mappings. A program may map over a block it freed (mmap
 * MAP_FIXED, as AddressSanitizer's large_allocator_unpoisons_on_free does),
 * munmap it, or mremap it away: it cannot legitimately do so to memory it
 * was never given, so a span it does that to is one it was given, and from
 * then on it is the program's. mmap.c tells us before its system call
 * (md_heap_mapped_over); every span overlapping the range leaves the
 * table, the cache and the free lists, its granules are marked the
 * program's in the map (lookups answer "not heap": md_heap_large_given),
 * and mdebug never touches its pages again. Calls the runtime cannot see
 * (a raw syscall) are not covered.
 *
 * With page_guard_front, a chosen block sits at the start of its pages
 * instead, right after the inaccessible page (md_secondary_take_at). This
 * file knows only its own blocks: page_guard's blocks (pageguard.c) are
 * klass 0 too, but heap.c, the facade, sends every call about them to
 * pageguard.c and never here, and walks both.
 *
 * Walks (heap dumps, exit checks, the leak scan) may read a block's bytes
 * after dropping the lock: a block freed meanwhile stays in the table
 * (flagged) and its span is given back only when the last walk ends. With
 * free_track, a freed block that the quarantine counts in free_track_bytes
 * (md_secondary_keep) is filled and checked as a small block is, its pages
 * kept for reuse; a larger one has its pages made inaccessible and given
 * back to the OS at once (any later access faults).
 *
 * Never allocates through malloc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>

#include "base.h"
#include "heap_internal.h"
#include "lock.h"
#include "scan_contract.h"

#define PAGE ((size_t)4096)
#define HEADER_MAGIC 0x6d64626967626c6bull /* "mdbigblk" */
#define GRANULE_SHIFT 20
#define GRANULE ((size_t)1 << GRANULE_SHIFT)
#define ORDERS 48
#define NO_ORDER UINT32_MAX /* a mapping of its own, not in the arena */

/* The arena's map: per granule, 1 + the first granule of the span holding
 * it (0 while never carved), the span's order, and two marks: MAP_FREE on
 * a span's first granule while it is in its order's free list (so that a
 * link in a header, which a stray write may have changed, can be checked
 * before it is followed, and no span is taken twice), MAP_GIVEN on every
 * granule the program mapped over. 2^24 granules (16 TiB) at most: the
 * arena is twice the primary range, 1 TiB at most. */
#define MAP_FIRST 0x00ffffffu
#define MAP_ORDER_SHIFT 24 /* 6 bits */
#define MAP_ORDER(v) (((v) >> MAP_ORDER_SHIFT) & 63u)
#define MAP_FREE 0x40000000u
#define MAP_GIVEN 0x80000000u

/* The cache of freed spans that keep their pages (open). 32 spans, as Scudo's
 * default secondary cache; 32 MiB of pages in all, glibc's largest dynamic
 * mmap threshold on 64-bit (glibc keeps freed blocks up to that size in its
 * heap, and up to twice it before trimming): what a program that reuses
 * large blocks may keep resident beyond its live blocks, no more than it
 * would with glibc; the FREED_ bounds cut it further.
 * malloc_trim empties the cache. */
#define CACHE_ENTRIES 32
#define CACHE_BYTES ((size_t)32 << 20)

/* The bound on freed large blocks' resident pages: the cache's spans and
 * the quarantine's kept blocks (md_secondary_keep) together hold at most
 * 1/FREED_SHARE of the live large bytes (those of the large range
 * accessible now, but these), or a floor when that is more: a sixteenth
 * of the program's heap (live large bytes and the small blocks' committed
 * slots), from FREED_FLOOR_MIN to FREED_FLOOR_MAX (a program of a few
 * MiB, which churns one buffer, is not charged a MiB of freed pages
 * it would not keep natively; one of tens of MiB keeps a few blocks'
 * pages for reuse). No clock:
 * it is checked whenever a block is freed, kept or given back, so a
 * program whose large blocks go away keeps no more than the floor, and the
 * newest cached span (of any size up to CACHE_BYTES): a span given back
 * is always cached, and a kept block never pushes it out (it is the
 * one the next block of its order takes), so that one block churned in a
 * loop (allocated, filled, freed: up to 1 MiB, the most the quarantine
 * keeps) keeps its pages, one kept and one cached; and each thread's
 * quarantine may keep one block past the bound (md_secondary_keep), so
 * that threads churning blocks each keep theirs. A kept block whose
 * header turns out corrupt stays counted: its span is left alone, resident,
 * for good. */
#define FREED_FLOOR_MIN ((size_t)256 << 10) /* 256 KiB */
#define FREED_FLOOR_MAX ((size_t)1 << 20)   /* 1 MiB */
#define FREED_FLOOR_SHARE 16
#define FREED_SHARE 8

/* What the bound learns: cached spans past it, for a program that has
 * shown it takes again what the bound gave back. When a block finds no
 * cached span of its order while the bound has given one of that order
 * back to the OS (and none has been asked for since), the bound cost it a
 * fault per page: the cache may then keep that block's pages more past
 * the bound, up to CHURN_MAX in all. A program that churns a few large
 * blocks at a time (snappy's tests: input, compressed and uncompressed
 * strings) kept only the newest span past the bound, once the
 * quarantine's kept blocks had filled it, and refaulted the others at
 * each round: 185,000 pages, 1.7x the page faults of the same run with
 * every check off. Only the cache gets it (the quarantine keeps within
 * the bound), and only from such refaults: a program that frees its
 * blocks and does not ask again keeps the bound. Never given back: a
 * program that churned once may keep up to CHURN_MAX of freed pages past
 * the bound. */
#define CHURN_MAX ((size_t)1 << 20) /* 1 MiB */

struct header {
  struct md_meta meta;
  struct md_stacks stacks;
  uint64_t magic;
  uintptr_t map;       /* the whole mapping (an arena span: its start) */
  size_t map_size;
  unsigned char *data; /* the first accessible byte: the block's first page,
                          or its front guard's */
  unsigned char *user;
  size_t size;         /* requested, full width (meta.size is truncated) */
  size_t room;         /* user to the rear inaccessible page */
  uint32_t order;      /* arena span: 2^order granules; else NO_ORDER */
  uint32_t unused;
  uint64_t check;      /* header_check() of the fields above */
  struct header *next; /* a free span: the next one of its order */
};

/* A table entry: the block's pointer (the key, out of the span) and its
 * header's address, page aligned, with these flags in the low bits. */
struct entry {
  uintptr_t user;
  uintptr_t h;
};
#define E_DEFERRED 1u  /* freed during a walk: given back when it ends */
#define E_DROPPED 4u   /* quarantined: its pages are inaccessible and
                          empty (given back to the OS) */
#define E_DIRTY 8u     /* its pages held another block's bytes */
#define E_OWN 16u      /* a mapping of its own, not an arena span */
#define E_KEPT 32u     /* quarantined, its pages kept (counted in kept) */
#define E_FLAGS 63u

static inline struct header *entry_header(const struct entry *e) {
  return (struct header *)(e->h & ~(uintptr_t)E_FLAGS);
}

/* Bytes of the large range accessible now (heap.h): this file's spans and
 * page_guard's blocks both count here, the backends of that range. */
size_t md_heap_large_committed;

static md_lock_t lock = MD_LOCK_INIT;
static struct entry *table; /* open addressing, by user pointer */
static size_t mask, used, bytes_mapped, deferred_count;
static size_t own_count; /* entries whose block has a mapping of its own */
static int walkers;

/* The arena (under the lock, but for the map, read without it). */
static uintptr_t arena_base;
static size_t arena_granules; /* 0: no arena */
static size_t arena_next;     /* granules carved so far */
static uint32_t *arena_map;
static struct header *arena_free[ORDERS]; /* released spans, by order */

/* The cache: spans whose pages are kept (open), oldest first. */
struct cached {
  struct header *h;
  uintptr_t lo, hi; /* the pages kept */
  uint32_t order;
};
static struct cached cache[CACHE_ENTRIES];
static unsigned cache_count;
static size_t cache_bytes;
static size_t kept_bytes; /* quarantined blocks' kept pages (E_KEPT) */
static size_t churn;      /* the cache's bytes past the bound (CHURN_MAX) */
/* Spans of each order the bound gave back that no block has missed since
 * (at most CACHE_ENTRIES). */
static uint8_t bound_dropped[ORDERS];

/* What a kept block counts: its span's data pages, without the header's
 * and the two inaccessible ones (the pages md_secondary_keep returns for
 * a block that does not reach its front slack); from map_size, what the
 * table counts, so that an entry leaves with what it came in with without
 * its header being read. */
static inline size_t kept_of(size_t map_size) {
  return map_size > 3 * PAGE ? map_size - 3 * PAGE : 0;
}

static inline uintptr_t page_down(uintptr_t x) { return x & ~(PAGE - 1); }
static inline uintptr_t page_up(uintptr_t x) { return page_down(x + PAGE - 1); }

/* ---- the check word -------------------------------------------------------- */

static uint64_t check_key;

static inline uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ull;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dull;
  return x ^ (x >> 33);
}

/* The key: random per process (AT_RANDOM, which the kernel gives every
 * process), so that no byte pattern a program writes by chance passes. */
static uint64_t key(void) {
  uint64_t k = __atomic_load_n(&check_key, __ATOMIC_RELAXED);
  if (MD_LIKELY(k))
    return k;
  const unsigned char *r = (const unsigned char *)getauxval(AT_RANDOM);
  if (r)
    memcpy(&k, r + 8, sizeof(k)); /* glibc takes the first 8 for its canary */
  k |= 1;
  __atomic_store_n(&check_key, k, __ATOMIC_RELAXED);
  return k;
}

static uint64_t header_check(const struct header *h) {
  uint64_t x = key();
  x = mix(x ^ h->magic);
  x = mix(x ^ h->map);
  x = mix(x ^ h->map_size);
  x = mix(x ^ (uintptr_t)h->data);
  x = mix(x ^ (uintptr_t)h->user);
  x = mix(x ^ h->size);
  x = mix(x ^ h->room);
  return mix(x ^ h->order);
}

static inline bool header_ok(const struct header *h) {
  return h->magic == HEADER_MAGIC && h->check == header_check(h);
}

/* ---- the arena --------------------------------------------------------- */

void md_secondary_init(uintptr_t base, size_t size) {
  size_t n = size >> GRANULE_SHIFT;
  if (n > MAP_FIRST - 1)
    n = MAP_FIRST - 1;
  uint32_t *map = md_mmap(n * sizeof(uint32_t));
  if (!map)
    return; /* no arena: blocks get mappings of their own */
  arena_map = map;
  arena_base = base;
  arena_granules = n;
}

static inline uint32_t map_at(size_t g) {
  return __atomic_load_n(&arena_map[g], __ATOMIC_ACQUIRE);
}

/* The granule of p in the arena, or false. */
static inline bool granule_of(uintptr_t p, size_t *g) {
  *g = (p - arena_base) >> GRANULE_SHIFT;
  return p >= arena_base && *g < arena_granules;
}

static inline uintptr_t granule_addr(size_t g) {
  return arena_base + ((uintptr_t)g << GRANULE_SHIFT);
}

/* The header of the span holding p, if p is in a span carved from the
 * arena and still mdebug's (its header page is readable for good). */
static struct header *arena_header(const void *p) {
  size_t g;
  if (!granule_of((uintptr_t)p, &g))
    return NULL;
  uint32_t v = map_at(g);
  if (!(v & MAP_FIRST) || (v & MAP_GIVEN))
    return NULL;
  return (struct header *)granule_addr((v & MAP_FIRST) - 1);
}

static unsigned order_of(size_t total) {
  size_t granules = (total + GRANULE - 1) >> GRANULE_SHIFT;
  return granules <= 1 ? 0 : 64 - (unsigned)__builtin_clzll(granules - 1);
}

/* Is h the start of a span of order o that is still mdebug's (the map
 * says so: nothing in the header is trusted for it)? */
static bool span_is(const struct header *h, uint32_t o) {
  size_t g;
  if (!granule_of((uintptr_t)h, &g) || (uintptr_t)h != granule_addr(g))
    return false;
  uint32_t v = map_at(g);
  return (v & MAP_FIRST) == g + 1 && MAP_ORDER(v) == o && !(v & MAP_GIVEN);
}

static void map_mark(const struct header *h, uint32_t set, uint32_t clear) {
  size_t g = ((uintptr_t)h - arena_base) >> GRANULE_SHIFT;
  uint32_t v = map_at(g);
  __atomic_store_n(&arena_map[g], (v | set) & ~clear, __ATOMIC_RELEASE);
}

/* Under the lock: a released span of order o, its header page accessible
 * and the rest not. A link that does not lead to a free span of that
 * order (a header changed by a stray write) ends the list: the spans
 * after it are lost to reuse, never handed out twice. */
static struct header *free_pop(unsigned o) {
  struct header *h = arena_free[o];
  if (!h)
    return NULL;
  size_t g = ((uintptr_t)h - arena_base) >> GRANULE_SHIFT;
  if (!span_is(h, o) || !(map_at(g) & MAP_FREE)) {
    arena_free[o] = NULL;
    return NULL;
  }
  arena_free[o] = h->next;
  map_mark(h, 0, MAP_FREE);
  return h;
}

static void free_push(struct header *h, unsigned o) {
  h->next = arena_free[o];
  arena_free[o] = h;
  map_mark(h, MAP_FREE, 0);
}

/* Under the lock: a span of order o never used, its header page made
 * accessible and the map written (after the page is accessible: a lookup
 * that finds the span reads its header). Granules the program mapped over
 * are skipped. */
static struct header *carve(unsigned o) {
  size_t n = (size_t)1 << o;
  for (;;) {
    if (!arena_granules || o >= ORDERS || arena_granules - arena_next < n)
      return NULL;
    size_t first = arena_next, g;
    for (g = first; g < first + n && !(map_at(g) & MAP_GIVEN); g++)
      ;
    arena_next = g < first + n ? g + 1 : first + n;
    if (g < first + n)
      continue;
    unsigned char *span = (unsigned char *)granule_addr(first);
    if (mprotect(span, PAGE, PROT_READ | PROT_WRITE) != 0)
      return NULL; /* the span is lost to the arena: rare */
    for (g = first; g < first + n; g++)
      __atomic_store_n(&arena_map[g],
                       (uint32_t)(first + 1) | (uint32_t)o << MAP_ORDER_SHIFT,
                       __ATOMIC_RELEASE);
    return (struct header *)span;
  }
}

/* The end of an arena span (from the map). */
static inline uintptr_t span_end(const struct header *h, uint32_t o) {
  return (uintptr_t)h + (GRANULE << o);
}

/* Under the lock: a span's pages back to the OS, all but its header page
 * (one system call: empty, inaccessible, and mergeable with the rest of the
 * arena's reservation); the span then waits in its order's free list. */
static void release(struct header *h, uint32_t o, size_t counted) {
  uintptr_t rest = (uintptr_t)h + PAGE;
  size_t len = span_end(h, o) - rest;
  if (mmap((void *)rest, len, PROT_NONE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
           0) == MAP_FAILED) {
    mprotect((void *)rest, len, PROT_NONE);
    madvise((void *)rest, len, MADV_DONTNEED);
  }
  __atomic_fetch_sub(&md_heap_large_committed, counted, __ATOMIC_RELAXED);
  free_push(h, o);
}

/* ---- the cache ----------------------------------------------------------- */

/* Under the lock: the oldest cached span goes back to the OS. */
static void cache_drop_oldest(void) {
  struct cached c = cache[0];
  cache_count--;
  memmove(&cache[0], &cache[1], cache_count * sizeof(cache[0]));
  cache_bytes -= c.hi - c.lo;
  release(c.h, c.order, PAGE + (c.hi - c.lo));
}

/* Under the lock: the most freed blocks may keep resident now, cache and
 * kept blocks together (FREED_FLOOR_*, FREED_SHARE). */
static size_t freed_bound(void) {
  size_t committed =
      __atomic_load_n(&md_heap_large_committed, __ATOMIC_RELAXED);
  size_t freed = cache_bytes + cache_count * PAGE + kept_bytes;
  size_t live = committed > freed ? committed - freed : 0;
  size_t heap =
      live + __atomic_load_n(&md_heap_small_committed, __ATOMIC_RELAXED);
  size_t floor = heap / FREED_FLOOR_SHARE;
  floor = floor < FREED_FLOOR_MIN   ? FREED_FLOOR_MIN
          : floor > FREED_FLOOR_MAX ? FREED_FLOOR_MAX
                                    : floor;
  return live / FREED_SHARE > floor ? live / FREED_SHARE : floor;
}

/* Under the lock: the oldest cached spans go back to the OS until `more`
 * bytes fit the bound along with what is kept, all but the last `spare`
 * spans; whether `more` fits. */
static bool cache_fit(size_t more, unsigned spare) {
  size_t bound = freed_bound();
  while (cache_count > spare &&
         cache_bytes + kept_bytes + more > bound + churn) {
    if (bound_dropped[cache[0].order] < CACHE_ENTRIES)
      bound_dropped[cache[0].order]++;
    cache_drop_oldest();
  }
  return kept_bytes + more <= bound;
}

/* Under the lock: a block of `bytes` pages found no cached span of order
 * o. If the bound gave one back (cache_fit), it learns (CHURN_MAX). */
static void cache_missed(unsigned o, size_t bytes) {
  if (!bound_dropped[o])
    return;
  bound_dropped[o]--;
  churn = churn + bytes < CHURN_MAX ? churn + bytes : CHURN_MAX;
}

/* Under the lock: a freed span of order o whose pages [lo, hi) are kept
 * (open) joins the cache, or goes back to the OS when it cannot. */
static void cache_put(struct header *h, uint32_t o, uintptr_t lo,
                      uintptr_t hi) {
  if (hi - lo > CACHE_BYTES) {
    release(h, o, PAGE + (hi - lo));
    return;
  }
  /* The newest span stays, whatever its size (up to CACHE_BYTES), as in
   * md_secondary_keep: a 4 MiB block churned with every check off
   * otherwise went back to the OS at each free (45x slower). */
  cache_fit(hi - lo, 0);
  while (cache_count == CACHE_ENTRIES || cache_bytes + (hi - lo) > CACHE_BYTES)
    cache_drop_oldest();
  cache[cache_count++] = (struct cached){h, lo, hi, o};
  cache_bytes += hi - lo;
}

/* Under the lock: the cached span of order o whose kept pages are closest
 * to `want` bytes (those the new block opens); false when none. */
static bool cache_take(unsigned o, size_t want, struct cached *out) {
  unsigned best = CACHE_ENTRIES;
  size_t best_gap = SIZE_MAX;
  for (unsigned i = cache_count; i-- > 0;) {
    if (cache[i].order != o || !span_is(cache[i].h, o))
      continue;
    size_t have = cache[i].hi - cache[i].lo;
    size_t gap = have > want ? have - want : want - have;
    if (gap < best_gap) {
      best = i;
      best_gap = gap;
      if (!gap)
        break;
    }
  }
  if (best == CACHE_ENTRIES)
    return false;
  *out = cache[best];
  cache_count--;
  memmove(&cache[best], &cache[best + 1],
          (cache_count - best) * sizeof(cache[0]));
  cache_bytes -= out->hi - out->lo;
  return true;
}

/* Empties the cache (malloc_trim); the bytes it held. */
size_t md_secondary_trim(void) {
  md_lock(&lock);
  size_t bytes = cache_bytes;
  while (cache_count)
    cache_drop_oldest();
  md_unlock(&lock);
  return bytes;
}

/* ---- the table ------------------------------------------------------------ */

static inline size_t hash(uintptr_t p) {
  uint64_t h = (p >> 12) * 0x9e3779b97f4a7c15ull;
  return (size_t)(h ^ (h >> 29));
}

static long find_slot(uintptr_t user) {
  if (!table)
    return -1;
  for (size_t i = hash(user) & mask;; i = (i + 1) & mask) {
    if (!table[i].user)
      return -1;
    if (table[i].user == user)
      return (long)i;
  }
}

static void put(struct entry *t, size_t m, struct entry e) {
  size_t i = hash(e.user) & m;
  while (t[i].user)
    i = (i + 1) & m;
  t[i] = e;
}

/* Under the lock. Keeps the load at most 1/2. */
static bool insert(uintptr_t user, struct header *h, size_t map_size,
                   unsigned flags) {
  size_t capacity = table ? mask + 1 : 0;
  if ((used + 1) * 2 > capacity) {
    size_t cap = capacity ? capacity * 2 : 256;
    struct entry *t = md_mmap(cap * sizeof(*t));
    if (!t)
      return false;
    for (size_t i = 0; i < capacity; i++)
      if (table[i].user)
        put(t, cap - 1, table[i]);
    md_munmap(table, capacity * sizeof(*t));
    table = t;
    mask = cap - 1;
  }
  put(table, mask, (struct entry){user, (uintptr_t)h | flags});
  used++;
  if (flags & E_OWN)
    own_count++;
  bytes_mapped += map_size;
  return true;
}

/* Under the lock: backward-shift deletion. The header is not read (it may
 * be corrupt, or the program's): map_size is what insert counted, or 0
 * when the header cannot say. */
static void delete_at(size_t hole, size_t map_size) {
  if (table[hole].h & E_DEFERRED)
    deferred_count--;
  if (table[hole].h & E_OWN)
    own_count--;
  if (table[hole].h & E_KEPT) {
    size_t k = kept_of(map_size);
    kept_bytes -= k < kept_bytes ? k : kept_bytes;
  }
  for (size_t j = (hole + 1) & mask; table[j].user; j = (j + 1) & mask) {
    size_t home = hash(table[j].user) & mask;
    if (((j - home) & mask) >= ((j - hole) & mask)) {
      table[hole] = table[j];
      hole = j;
    }
  }
  table[hole] = (struct entry){0, 0};
  used--;
  bytes_mapped -= map_size < bytes_mapped ? map_size : bytes_mapped;
}

static void to_block(struct header *h, struct md_block *b) {
  b->meta = &h->meta;
  b->stacks = md_heap.stacks ? &h->stacks : NULL;
  b->user = h->user;
  b->size = h->size;
  b->room = h->room;
  b->klass = 0;
  b->index = 0;
  b->lead = 0;
}

/* A header that failed its check, reported once (its entry is gone). */
MD_COLD static void report_corrupt(uintptr_t user, const struct header *h,
                                   const char *when) {
  md_heap_report_header(user, h, when);
}

/* ---- taking a block ---------------------------------------------------------- */

/* Under the lock: pages [a, b) become inaccessible and empty (nothing if
 * the range is empty). */
static void close_pages(uintptr_t a, uintptr_t b) {
  if (a >= b)
    return;
  mprotect((void *)a, b - a, PROT_NONE);
  madvise((void *)a, b - a, MADV_DONTNEED);
}

/* Under the lock: lays a block out in arena span h of order o, whose pages
 * [old_lo, old_hi) are open (accessible, resident: a freed block's, from
 * the cache; none for a fresh or released span). Only the pages that
 * change are touched: a block that opens the same pages costs no system
 * call. */
static bool place(struct header *h, uint32_t o, size_t n, size_t align,
                  bool at_start, size_t size, uintptr_t old_lo,
                  uintptr_t old_hi) {
  uintptr_t map = (uintptr_t)h, data = map + 2 * PAGE, user;
  size_t data_bytes = page_up(n);
  if (align <= PAGE && !at_start) /* at the end of its pages */
    user = (data + data_bytes - n) & ~(uintptr_t)(align - 1);
  else /* aligned first; the pad's rest comes after it */
    user = (data + align - 1) & ~(uintptr_t)(align - 1);
  uintptr_t end = page_up(user + n);
  uintptr_t front = md_heap.front_guard < user - data ? md_heap.front_guard
                                                       : user - data;
  uintptr_t lo = page_down(user - front);
  /* The freed block's metadata goes (its word changes: answers cached for
   * it no longer hold) before anything else is written. */
  memset(h, 0, sizeof(*h));
  if (old_hi <= old_lo || old_hi <= lo || end <= old_lo) {
    /* Nothing open, or nothing in common: open the new, close the old. */
    if (mprotect((void *)lo, end - lo, PROT_READ | PROT_WRITE) != 0)
      return false;
    close_pages(old_lo, old_hi);
  } else {
    /* Open what the new block adds on either side, close what it drops. */
    if ((lo < old_lo &&
         mprotect((void *)lo, old_lo - lo, PROT_READ | PROT_WRITE) != 0) ||
        (end > old_hi &&
         mprotect((void *)old_hi, end - old_hi, PROT_READ | PROT_WRITE) != 0))
      return false;
    close_pages(old_lo, lo);
    close_pages(end, old_hi);
  }
  h->magic = HEADER_MAGIC;
  h->map = map;
  h->map_size = end + PAGE - map;
  h->data = (unsigned char *)lo;
  h->user = (unsigned char *)user;
  h->size = size;
  h->room = end - user;
  h->order = o;
  h->check = header_check(h);
  size_t was = old_hi > old_lo ? PAGE + (old_hi - old_lo) : 0;
  size_t now = PAGE + (end - lo);
  if (now >= was)
    __atomic_fetch_add(&md_heap_large_committed, now - was, __ATOMIC_RELAXED);
  else
    __atomic_fetch_sub(&md_heap_large_committed, was - now, __ATOMIC_RELAXED);
  return true;
}

/* A block in an arena span: a cached one (no page faults), a released
 * one, or one carved now. */
static bool take_arena(size_t n, size_t align, bool at_start, size_t size,
                       size_t total, struct md_block *b) {
  unsigned o = order_of(total);
  if (!arena_granules || o >= ORDERS)
    return false;
  md_lock(&lock);
  struct cached c = {0};
  unsigned flags = 0;
  struct header *h = NULL;
  if (cache_take(o, page_up(n), &c)) {
    h = c.h;
    flags = E_DIRTY;
  } else {
    cache_missed(o, page_up(n));
    if ((h = free_pop(o)) == NULL)
      h = carve(o);
  }
  bool ok = h != NULL;
  if (ok && !place(h, o, n, align, at_start, size, c.lo, c.hi)) {
    /* Back to the OS, then the free list: its header says no block now. */
    release(h, o, c.hi > c.lo ? PAGE + (c.hi - c.lo) : 0);
    ok = false;
  }
  if (ok && !insert((uintptr_t)h->user, h, h->map_size, flags)) {
    release(h, o, PAGE + (h->user + h->room - h->data));
    ok = false;
  }
  md_unlock(&lock);
  if (ok)
    to_block(h, b);
  return ok;
}

/* A block in a mapping of its own (no arena, or it is full). An alignment
 * beyond a page is had by mapping more and unmapping the slack at once. */
static bool take_own(size_t n, size_t align, bool at_start, size_t size,
                     size_t total, struct md_block *b) {
  unsigned char *map = mmap(NULL, total, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED)
    return false;
  uintptr_t data = (uintptr_t)map + 2 * PAGE, user;
  size_t data_bytes = page_up(n);
  if (align <= PAGE && !at_start)
    user = (data + data_bytes - n) & ~(uintptr_t)(align - 1);
  else
    user = (data + align - 1) & ~(uintptr_t)(align - 1);
  uintptr_t end = page_up(user + n);
  uintptr_t front = md_heap.front_guard < user - data ? md_heap.front_guard
                                                       : user - data;
  uintptr_t lo = page_down(user - front);
  /* The alignment's slack: before the header page, and after the
   * inaccessible page that ends the block. */
  uintptr_t start = lo - 2 * PAGE, stop = end + PAGE;
  if (start > (uintptr_t)map)
    munmap(map, start - (uintptr_t)map);
  if ((uintptr_t)map + total > stop)
    munmap((void *)stop, (uintptr_t)map + total - stop);
  map = (unsigned char *)start;
  total = stop - start;
  /* Inaccessible: the page between header and data, and the one after the
   * block's last page. */
  if (mprotect(map + PAGE, PAGE, PROT_NONE) != 0 ||
      mprotect((void *)end, PAGE, PROT_NONE) != 0) {
    munmap(map, total);
    return false;
  }
  struct header *h = (struct header *)map;
  h->magic = HEADER_MAGIC;
  h->map = (uintptr_t)map;
  h->map_size = total;
  h->data = (unsigned char *)lo;
  h->user = (unsigned char *)user;
  h->size = size;
  h->room = end - user;
  h->order = NO_ORDER;
  h->check = header_check(h);
  md_lock(&lock);
  bool ok = insert(user, h, total, E_OWN);
  md_unlock(&lock);
  if (!ok) {
    munmap(map, total);
    return false;
  }
  to_block(h, b);
  return true;
}

bool md_secondary_take_at(size_t size, size_t align, bool at_start,
                          struct md_block *b) {
  size_t n = size + md_heap.expand;
  if (n == 0)
    n = 1; /* a block of its own all the same */
  if (align < MD_MIN_ALIGN)
    align = MD_MIN_ALIGN;
  /* size <= MD_MAX_SIZE (2^47): none of this overflows. */
  size_t pad = align > PAGE ? align : 0;
  size_t total = 3 * PAGE + pad + page_up(n);
  if (take_arena(n, align, at_start, size, total, b) ||
      take_own(n, align, at_start, size, total, b))
    return true;
  errno = ENOMEM;
  return false;
}

/* ---- giving it back -------------------------------------------------------- */

/* Under the lock, its entry gone: a freed block's span back to the cache
 * (its pages kept as they are) or, when the quarantine emptied them, to
 * the arena's free list. */
static void retire(struct header *h, unsigned flags) {
  if (flags & E_OWN) {
    munmap((void *)h->map, h->map_size);
    return;
  }
  uint32_t o = h->order;
  uintptr_t lo = (uintptr_t)h->data, hi = (uintptr_t)h->user + h->room;
  if (!span_is(h, o) || lo < (uintptr_t)h + 2 * PAGE || hi > span_end(h, o) ||
      lo >= hi)
    return; /* checked, yet not where the map says: leave it */
  if (flags & E_DROPPED)
    release(h, o, PAGE + (hi - lo));
  else
    cache_put(h, o, lo, hi);
}

void md_secondary_give(const struct md_block *b) {
  const struct header *want = (const struct header *)((uintptr_t)b->meta);
  md_lock(&lock);
  long i = find_slot((uintptr_t)b->user);
  if (i < 0 || entry_header(&table[i]) != want) {
    md_unlock(&lock); /* the program's now (md_heap_mapped_over) */
    return;
  }
  struct header *h = entry_header(&table[i]);
  if (!header_ok(h)) {
    delete_at((size_t)i, 0);
    md_unlock(&lock);
    report_corrupt((uintptr_t)b->user, h, "when the block was given back");
    return;
  }
  if (walkers > 0) {
    if (!(table[i].h & E_DEFERRED))
      deferred_count++;
    table[i].h |= E_DEFERRED;
    md_unlock(&lock);
    return;
  }
  unsigned flags = (unsigned)(table[i].h & E_FLAGS);
  delete_at((size_t)i, h->map_size);
  retire(h, flags);
  md_unlock(&lock);
}

/* Kept only within the bound on freed blocks' resident pages (cached
 * spans but the newest go to make room), or when `first`: the thread's
 * ring keeps no other (quarantine.c: one block per thread past the bound,
 * so that each thread's churned block keeps its pages): 0 says the
 * quarantine is to give its own kept blocks back first, or the block's
 * pages go back to the OS. */
size_t md_secondary_keep(const struct md_block *b, size_t budget, bool first) {
  if (!budget)
    return 0;
  size_t pages = page_up((uintptr_t)b->user + b->room) -
                 page_down((uintptr_t)b->user);
  if (pages > budget || pages > MD_QUARANTINE_KEEP_MAX)
    return 0;
  md_lock(&lock);
  long i = find_slot((uintptr_t)b->user);
  struct header *h = i >= 0 ? entry_header(&table[i]) : NULL;
  bool ok = h && h == (const struct header *)((uintptr_t)b->meta) &&
            !(table[i].h & E_KEPT) && header_ok(h);
  if (ok && (table[i].h & E_OWN)) {
    md_unlock(&lock); /* out of the large range: not counted, not cached */
    return pages;
  }
  /* The newest cached span stays: it is the one the next block of its
   * order takes (a block allocated and freed in a loop), where the
   * quarantine's oldest kept block only waits. */
  ok = ok && (kept_bytes + kept_of(h->map_size) <= freed_bound() ||
             first);
  if (ok) {
    table[i].h |= E_KEPT;
    kept_bytes += kept_of(h->map_size);
    cache_fit(0, 1);
  }
  md_unlock(&lock);
  return ok ? pages : 0;
}

void md_secondary_protect(const struct md_block *b) {
  md_lock(&lock);
  long i = find_slot((uintptr_t)b->user);
  struct header *h = i >= 0 ? entry_header(&table[i]) : NULL;
  if (h && h == (const struct header *)((uintptr_t)b->meta) && header_ok(h)) {
    close_pages((uintptr_t)h->data, (uintptr_t)h->user + h->room);
    table[i].h |= E_DROPPED;
  }
  md_unlock(&lock);
}

void md_secondary_zero(const struct md_block *b) {
  md_lock(&lock);
  long i = find_slot((uintptr_t)b->user);
  bool dirty = i < 0 || (table[i].h & E_DIRTY);
  md_unlock(&lock);
  if (dirty)
    memset(b->user, 0, md_block_usable(b));
}

/* ---- the program's mappings ----------------------------------------------- */

/* Under the lock: span h (arena, not yet marked) leaves every structure. */
static void unlink_span(struct header *h, uint32_t o) {
  size_t g0 = ((uintptr_t)h - arena_base) >> GRANULE_SHIFT;
  for (size_t i = 0; table && i <= mask; i++)
    if (table[i].user && entry_header(&table[i]) == h) {
      delete_at(i, h->map_size);
      break; /* one entry per span */
    }
  for (unsigned i = 0; i < cache_count; i++)
    if (cache[i].h == h) {
      cache_bytes -= cache[i].hi - cache[i].lo;
      cache_count--;
      memmove(&cache[i], &cache[i + 1], (cache_count - i) * sizeof(cache[0]));
      break;
    }
  if (map_at(g0) & MAP_FREE) {
    /* In its order's list: the links are checked as free_pop checks them;
     * the list ends at the first that fails (or at h). */
    struct header **link = &arena_free[o];
    while (*link && *link != h && span_is(*link, o) &&
           (map_at(((uintptr_t)*link - arena_base) >> GRANULE_SHIFT) &
            MAP_FREE))
      link = &(*link)->next;
    if (*link == h)
      *link = h->next;
    else
      *link = NULL;
  }
}

void md_secondary_mapped_over(uintptr_t lo, uintptr_t hi) {
  uintptr_t arena_end = granule_addr(arena_granules);
  bool in_arena = arena_granules && lo < arena_end && hi > arena_base;
  /* Most calls are about mappings far from the heap: no lock for them.
   * (A mapping of our own being made meanwhile is none the program was
   * given.) */
  if (!in_arena && !__atomic_load_n(&own_count, __ATOMIC_RELAXED))
    return;
  md_lock(&lock);
  size_t g, last;
  if (in_arena) {
    granule_of(lo > arena_base ? lo : arena_base, &g);
    granule_of((hi < arena_end ? hi : arena_end) - 1, &last);
    while (g <= last) {
      uint32_t v = map_at(g);
      if (v & MAP_GIVEN) {
        g++;
        continue;
      }
      if (!(v & MAP_FIRST)) { /* never carved: never carve it */
        __atomic_store_n(&arena_map[g], MAP_GIVEN, __ATOMIC_RELEASE);
        g++;
        continue;
      }
      size_t first = (v & MAP_FIRST) - 1, n = (size_t)1 << MAP_ORDER(v);
      struct header *h = (struct header *)granule_addr(first);
      unlink_span(h, MAP_ORDER(v));
      for (size_t k = first; k < first + n; k++)
        __atomic_store_n(&arena_map[k], map_at(k) | MAP_GIVEN,
                         __ATOMIC_RELEASE);
      g = first + n;
    }
  }
  /* Mappings of their own: their headers are read before the program's
   * call changes anything. */
  for (size_t i = 0; own_count && table && i <= mask; i++) {
    if (!table[i].user || !(table[i].h & E_OWN))
      continue;
    struct header *h = entry_header(&table[i]);
    bool ok = header_ok(h);
    if (!ok || (h->map < hi && h->map + h->map_size > lo)) {
      delete_at(i, ok ? h->map_size : 0);
      i--; /* backward shift may have moved an entry here */
    }
  }
  md_unlock(&lock);
}

bool md_secondary_given(const void *p, uintptr_t *lo, uintptr_t *hi) {
  size_t g;
  if (!arena_granules || !granule_of((uintptr_t)p, &g))
    return false;
  uint32_t v = map_at(g);
  if (!(v & MAP_GIVEN))
    return false;
  if (v & MAP_FIRST) { /* the span it was */
    size_t first = (v & MAP_FIRST) - 1;
    *lo = granule_addr(first);
    *hi = granule_addr(first + ((size_t)1 << MAP_ORDER(v)));
  } else { /* a granule never carved */
    *lo = granule_addr(g);
    *hi = granule_addr(g + 1);
  }
  return true;
}

/* ---- lookups --------------------------------------------------------------- */

unsigned char *md_secondary_front_guard(const struct md_block *b, size_t *n) {
  const struct header *h = (const struct header *)((uintptr_t)b->meta);
  size_t before = (size_t)(h->user - h->data);
  *n = md_heap.front_guard < before ? md_heap.front_guard : before;
  return h->user - *n;
}

/* Under the lock: is h the header of a block in the table? */
static bool in_table(const struct header *h) {
  long i = find_slot((uintptr_t)h->user);
  return i >= 0 && entry_header(&table[i]) == h;
}

enum md_lookup md_secondary_find(const void *p, bool interior,
                                 struct md_block *b) {
  enum md_lookup found = MD_NOT_OURS;
  struct header *corrupt = NULL;
  md_lock(&lock);
  long i = find_slot((uintptr_t)p);
  if (i >= 0) {
    struct header *h = entry_header(&table[i]);
    if (header_ok(h)) {
      to_block(h, b);
      found = MD_BLOCK;
    } else if (!interior) {
      corrupt = h;
      delete_at((size_t)i, 0);
    }
  } else if (interior) {
    struct header *a = arena_header(p);
    if (a) {
      /* Live or quarantined: in the table. */
      if (header_ok(a) && in_table(a) && (const unsigned char *)p >= a->data &&
          (const unsigned char *)p < a->user + a->room) {
        to_block(a, b);
        found = (const unsigned char *)p < a->user ? MD_IN_HEAP : MD_INTERIOR;
      }
    } else if (own_count && table) {
      for (size_t j = 0; j <= mask; j++) {
        struct header *h = table[j].user ? entry_header(&table[j]) : NULL;
        if (h && header_ok(h) && (const unsigned char *)p >= h->data &&
            (const unsigned char *)p < h->user + h->room) {
          to_block(h, b);
          found = (const unsigned char *)p < h->user ? MD_IN_HEAP : MD_INTERIOR;
          break;
        }
      }
    }
  }
  md_unlock(&lock);
  if (corrupt)
    report_corrupt((uintptr_t)p, corrupt,
                   "when mdebug looked the block up (a free, a realloc, or the "
                   "block leaving the free_track quarantine)");
  return found;
}

bool md_secondary_slot(const void *p, struct md_block *b) {
  struct header *h = arena_header(p);
  if (!h || MD_BITS_STATE(__atomic_load_n(&h->meta.bits, __ATOMIC_ACQUIRE)) ==
                MD_STATE_NEVER || !header_ok(h))
    return false;
  to_block(h, b);
  return true;
}

MD_COLD bool md_secondary_near(const void *p, struct md_block *b) {
  if (md_secondary_slot(p, b))
    return true;
  bool locked = false;
  for (int tries = 0; !locked && tries < 100; tries++)
    if (!(locked = md_trylock(&lock)))
      sched_yield();
  if (!locked)
    return false;
  bool found = false;
  for (size_t j = 0; table && j <= mask && !found; j++) {
    struct header *h = table[j].user ? entry_header(&table[j]) : NULL;
    if (h && header_ok(h) && (uintptr_t)p >= h->map &&
        (uintptr_t)p < h->map + h->map_size) {
      to_block(h, b);
      found = true;
    }
  }
  md_unlock(&lock);
  return found;
}

size_t md_secondary_footprint(const struct md_block *b) {
  return ((const struct header *)((uintptr_t)b->meta))->map_size;
}

/* ---- walks ----------------------------------------------------------------- */

/* Under the lock, the last walk over: blocks freed meanwhile go back. */
static void give_deferred(void) {
  for (size_t i = 0; deferred_count && table && i <= mask; i++) {
    if (!table[i].user || !(table[i].h & E_DEFERRED))
      continue;
    struct header *h = entry_header(&table[i]);
    unsigned flags = (unsigned)(table[i].h & E_FLAGS);
    delete_at(i, h->map_size);
    retire(h, flags);
    i--; /* backward shift may have moved an entry here */
  }
}

void md_secondary_for_each(unsigned states,
                           void (*fn)(const struct md_block *b, void *arg),
                           void *arg) {
  md_lock(&lock);
  if (!used) {
    md_unlock(&lock);
    return;
  }
  size_t n = 0, bytes = used * sizeof(struct header *);
  struct header **list = md_mmap(bytes);
  if (list)
    for (size_t j = 0; j <= mask; j++)
      if (table[j].user && header_ok(entry_header(&table[j])))
        list[n++] = entry_header(&table[j]);
  walkers++;
  md_unlock(&lock);
  for (size_t j = 0; j < n; j++) {
    struct md_block b;
    to_block(list[j], &b);
    if (states & (1u << md_block_state(&b)))
      fn(&b, arg);
  }
  md_munmap(list, bytes);
  md_lock(&lock);
  if (--walkers == 0)
    give_deferred();
  md_unlock(&lock);
}

void md_secondary_scan_lock(void) { md_lock(&lock); }
void md_secondary_scan_unlock(void) { md_unlock(&lock); }

void md_secondary_scan_count(size_t *blocks, size_t *bytes) {
  *blocks = used;
  *bytes = bytes_mapped;
}

void md_secondary_scan_each(unsigned states,
                            void (*fn)(const struct md_block *b, void *arg),
                            void *arg) {
  for (size_t j = 0; table && j <= mask; j++) {
    if (!table[j].user || !header_ok(entry_header(&table[j])))
      continue;
    struct md_block b;
    to_block(entry_header(&table[j]), &b);
    if (states & (1u << md_block_state(&b)))
      fn(&b, arg);
  }
}

void md_secondary_stats(size_t *blocks, size_t *bytes) {
  md_lock(&lock);
  *blocks = used;
  *bytes = bytes_mapped;
  md_unlock(&lock);
}

/* Fork (lifecycle.def's secondary row; page_guard's row comes right
 * after it). */
void md_secondary_atfork_prepare(void) { md_lock(&lock); }
void md_secondary_atfork_parent(void) { md_unlock(&lock); }
void md_secondary_atfork_child(void) {
  md_lock_reset(&lock);
  walkers = 0; /* a walk in another thread does not go on in the child */
  give_deferred();
}
