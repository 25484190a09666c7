/* secondary.c - blocks too large for a size class, or aligned beyond what a
 * slot can offer: each gets a mapping of its own.
 *
 *   [header page][no access][front slack | block | rear slack][no access]
 *                            ^ data       ^ user               ^ data + room
 *
 * The block sits at the end of its pages (rounded to its alignment), so a
 * write past its end reaches the inaccessible page at once; one before it
 * crosses the front slack (guard bytes) to the other. The header, with the
 * block's metadata, is in a page of its own: the block's bytes can never
 * reach it. A hash table (user pointer -> header) finds a block from the
 * pointer the program has without reading anything before it; it is
 * guarded by one lock, taken only by large allocations and frees.
 *
 * The arena. Spans (a block's pages, header and inaccessible pages) are cut
 * from an arena in the heap's large range (heap.h), so that checked
 * accesses cover large blocks: a map of the arena, one word per 1 MiB
 * granule (4 MiB for the 1 TiB arena: a finer map would count against
 * vm_threshold), names the span holding any address, and the span's first page
 * is its header, so an interior pointer leads to its block without the
 * lock (md_heap_large_slot). A span is a power of two of granules (address
 * space only: what lies past the block stays inaccessible and uncommitted)
 * and is never unmapped: a released span's pages become empty and
 * inaccessible but for its header page, which keeps the freed block's
 * metadata (a thread's cache of checked accesses may still hold the
 * block's answer, whose word is there; and an access through a dangling
 * pointer is still named as a use after free), until the span is taken
 * again for a block that needs a span of the same order. Without an arena
 * (no large range was reserved) or when it is full, a block gets a
 * mapping of its own anywhere, unchecked by checked accesses, as before.
 *
 * With page_guard_front, a chosen block sits at the start of its pages
 * instead, right after the inaccessible page. Blocks of page_guard's pool
 * (pageguard.c) are klass 0 as these are: every call here about an address
 * in the pool's range is passed on to pageguard.c, and walks cover them.
 *
 * Walks (heap dumps, exit checks, the leak scan) may read a block's bytes
 * after dropping the lock: a block released meanwhile is unmapped only when
 * the last walk ends. With free_track, a freed block's pages are made
 * inaccessible and given back to the OS at once (any later access faults)
 * and the mapping is removed when the quarantine lets it go.
 *
 * Never allocates through malloc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

#include "heap_internal.h"
#include "lock.h"

#define PAGE ((size_t)4096)
#define HEADER_MAGIC 0x6d64626967626c6bull /* "mdbigblk" */
#define GRANULE_SHIFT 20
#define GRANULE ((size_t)1 << GRANULE_SHIFT)
#define ORDERS 48
#define NO_ORDER UINT32_MAX /* a mapping of its own, not in the arena */

struct header {
  struct md_meta meta;
  struct md_stacks stacks;
  uint64_t magic;
  uintptr_t map;      /* the whole mapping */
  size_t map_size;
  unsigned char *data; /* first byte after the front inaccessible page */
  unsigned char *user;
  size_t size;         /* requested, full width (meta.size is truncated) */
  size_t room;         /* user to the rear inaccessible page */
  struct header *deferred; /* released during a walk: unmapped after it;
                              a free span: the next one of its order */
  uint32_t order;          /* arena span: 2^order granules; else NO_ORDER */
};

static md_lock_t lock = MD_LOCK_INIT;
static struct header **table; /* open addressing, by user pointer */
static size_t mask, used, bytes_mapped;
static int walkers;
static struct header *deferred;

/* The arena (under the lock, but for the map, read without it). */
static uintptr_t arena_base;
static size_t arena_granules; /* 0: no arena */
static size_t arena_next;     /* granules carved so far */
/* Per granule: 1 + the first granule of the span holding it; 0 while never
 * carved. Written once, when the span is first carved. */
static uint32_t *arena_map;
static struct header *arena_free[ORDERS]; /* released spans, by order */

void md_secondary_init(uintptr_t base, size_t size) {
  size_t n = size >> GRANULE_SHIFT;
  if (n > UINT32_MAX - 1)
    n = UINT32_MAX - 1;
  uint32_t *map = md_mmap(n * sizeof(uint32_t));
  if (!map)
    return; /* no arena: blocks get mappings of their own */
  arena_map = map;
  arena_base = base;
  arena_granules = n;
}

/* The header of the span holding p, if p is in a span carved from the
 * arena (its header page is readable for good). */
static struct header *arena_header(const void *p) {
  size_t g = ((uintptr_t)p - arena_base) >> GRANULE_SHIFT;
  if ((uintptr_t)p < arena_base || g >= arena_granules)
    return NULL;
  uint32_t first = __atomic_load_n(&arena_map[g], __ATOMIC_ACQUIRE);
  if (!first)
    return NULL;
  return (struct header *)(arena_base +
                           ((uintptr_t)(first - 1) << GRANULE_SHIFT));
}

/* A span for `total` bytes: a released one of its order (*fresh false:
 * its header page is accessible, the rest not), or one carved now (all
 * inaccessible); NULL when there is no arena, or no room in it. */
static unsigned char *arena_take(size_t total, uint32_t *order, bool *fresh) {
  size_t granules = (total + GRANULE - 1) >> GRANULE_SHIFT;
  unsigned o = granules <= 1 ? 0 : 64 - (unsigned)__builtin_clzll(granules - 1);
  if (!arena_granules || o >= ORDERS)
    return NULL;
  unsigned char *span = NULL;
  md_lock(&lock);
  struct header *h = arena_free[o];
  if (h) {
    arena_free[o] = h->deferred;
    span = (unsigned char *)h;
    *fresh = false;
  } else if (arena_granules - arena_next >= (size_t)1 << o) {
    span = (unsigned char *)(arena_base + (arena_next << GRANULE_SHIFT));
    arena_next += (size_t)1 << o;
    *fresh = true;
  }
  md_unlock(&lock);
  *order = o;
  return span;
}

/* Back to the arena's free spans (its header page accessible). */
static void arena_put(struct header *h) {
  md_lock(&lock);
  h->deferred = arena_free[h->order];
  arena_free[h->order] = h;
  md_unlock(&lock);
}

/* A span's first use: its header page, then the map (after the page is
 * accessible: a lookup that finds the span reads its header). */
static bool arena_carve(unsigned char *span, uint32_t order) {
  if (mprotect(span, PAGE, PROT_READ | PROT_WRITE) != 0)
    return false; /* the span is lost to the arena: rare */
  uint32_t first = (uint32_t)(((uintptr_t)span - arena_base) >> GRANULE_SHIFT);
  for (size_t g = 0; g < (size_t)1 << order; g++)
    __atomic_store_n(&arena_map[first + g], first + 1, __ATOMIC_RELEASE);
  return true;
}

static inline size_t hash(const void *p) {
  uint64_t h = ((uintptr_t)p >> 12) * 0x9e3779b97f4a7c15ull;
  return (size_t)(h ^ (h >> 29));
}

static long find_slot(const void *user) {
  if (!table)
    return -1;
  for (size_t i = hash(user) & mask;; i = (i + 1) & mask) {
    if (!table[i])
      return -1;
    if (table[i]->user == user)
      return (long)i;
  }
}

static void put(struct header **t, size_t m, struct header *h) {
  size_t i = hash(h->user) & m;
  while (t[i])
    i = (i + 1) & m;
  t[i] = h;
}

/* Under the lock. Keeps the load at most 1/2. */
static bool insert(struct header *h) {
  size_t capacity = table ? mask + 1 : 0;
  if ((used + 1) * 2 > capacity) {
    size_t cap = capacity ? capacity * 2 : 256;
    struct header **t = md_mmap(cap * sizeof(*t));
    if (!t)
      return false;
    for (size_t i = 0; i < capacity; i++)
      if (table[i])
        put(t, cap - 1, table[i]);
    md_munmap(table, capacity * sizeof(*t));
    table = t;
    mask = cap - 1;
  }
  put(table, mask, h);
  used++;
  return true;
}

/* Under the lock: backward-shift deletion. */
static void delete_at(size_t hole) {
  for (size_t j = (hole + 1) & mask; table[j]; j = (j + 1) & mask) {
    size_t home = hash(table[j]->user) & mask;
    if (((j - home) & mask) >= ((j - hole) & mask)) {
      table[hole] = table[j];
      hole = j;
    }
  }
  table[hole] = NULL;
  used--;
}

/* Gives a block's mapping back: unmapped, or its span back to the arena,
 * empty and inaccessible but for its header page. */
static void release(struct header *h) {
  h->magic = 0;
  if (h->order == NO_ORDER) {
    munmap((void *)h->map, h->map_size);
    return;
  }
  uintptr_t rest = h->map + PAGE;
  size_t len = (GRANULE << h->order) - PAGE;
  size_t open = (size_t)(h->user + h->room - h->data);
  if (mmap((void *)rest, len, PROT_NONE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
           0) == MAP_FAILED) {
    mprotect((void *)rest, len, PROT_NONE);
    madvise((void *)rest, len, MADV_DONTNEED);
  }
  __atomic_fetch_sub(&md_heap_large_committed, open + PAGE, __ATOMIC_RELAXED);
  arena_put(h);
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

bool md_secondary_take_at(size_t size, size_t align, bool at_start,
                          struct md_block *b) {
  size_t n = size + md_heap.expand;
  if (n == 0)
    n = 1; /* a block of its own all the same */
  if (align < MD_MIN_ALIGN)
    align = MD_MIN_ALIGN;
  /* size <= MD_MAX_SIZE (2^47): none of this overflows. */
  size_t data_bytes = (n + PAGE - 1) & ~(PAGE - 1);
  size_t pad = align > PAGE ? align : 0;
  size_t total = PAGE + PAGE + pad + data_bytes + PAGE;
  uint32_t order = NO_ORDER;
  bool fresh = false;
  unsigned char *map = arena_take(total, &order, &fresh);
  if (map && fresh && !arena_carve(map, order))
    map = NULL;
  if (map) {
    /* Reused: the freed block's metadata goes (its word changes: answers
     * cached for it no longer hold) before anything else is written. */
    memset(map, 0, sizeof(struct header));
  } else {
    order = NO_ORDER;
    map = mmap(NULL, total, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) {
      errno = ENOMEM;
      return false;
    }
  }
  struct header *h = (struct header *)map;
  unsigned char *data = map + 2 * PAGE, *user;
  if (align <= PAGE && !at_start) /* at the end of its pages */
    user = (unsigned char *)(((uintptr_t)data + data_bytes - n) &
                             ~(uintptr_t)(align - 1));
  else /* aligned first; the pad's rest comes after it */
    user = (unsigned char *)(((uintptr_t)data + align - 1) &
                             ~(uintptr_t)(align - 1));
  unsigned char *end =
      (unsigned char *)(((uintptr_t)user + n + PAGE - 1) & ~(PAGE - 1));
  if (order != NO_ORDER) {
    /* An arena span: all but its header page is inaccessible; open the
     * data pages up to the block's end. */
    if (mprotect(data, (size_t)(end - data), PROT_READ | PROT_WRITE) != 0) {
      h->order = order;
      arena_put(h);
      errno = ENOMEM;
      return false;
    }
  } else if (mprotect(map + PAGE, PAGE, PROT_NONE) != 0 ||
             mprotect(end, (size_t)(map + total - end), PROT_NONE) != 0) {
    /* Inaccessible: the page between header and data, and everything from
     * the block's last page on (at least one page: total has it). */
    munmap(map, total);
    errno = ENOMEM;
    return false;
  }
  h->order = order;
  h->magic = HEADER_MAGIC;
  h->map = (uintptr_t)map;
  h->map_size = total;
  h->data = data;
  h->user = user;
  h->size = size;
  h->room = (size_t)(end - user);
  if (order != NO_ORDER)
    __atomic_fetch_add(&md_heap_large_committed, (size_t)(end - data) + PAGE,
                       __ATOMIC_RELAXED);
  md_lock(&lock);
  bool ok = insert(h);
  if (ok)
    bytes_mapped += total;
  md_unlock(&lock);
  if (!ok) {
    release(h);
    errno = ENOMEM;
    return false;
  }
  to_block(h, b);
  return true;
}

unsigned char *md_secondary_front_guard(const struct md_block *b, size_t *n) {
  if (md_pageguard_owns(b->user))
    return md_pageguard_front_guard(b, n);
  const struct header *h = (const struct header *)((uintptr_t)b->meta);
  size_t before = (size_t)(h->user - h->data);
  *n = md_heap.front_guard < before ? md_heap.front_guard : before;
  return h->user - *n;
}

enum md_lookup md_secondary_find(const void *p, bool interior,
                                 struct md_block *b) {
  if (md_pageguard_owns(p))
    return md_pageguard_find(p, interior, b);
  enum md_lookup found = MD_NOT_OURS;
  md_lock(&lock);
  long i = find_slot(p);
  struct header *a = interior ? arena_header(p) : NULL;
  if (i >= 0) {
    to_block(table[i], b);
    found = MD_BLOCK;
  } else if (a) {
    /* Live or quarantined (in the table, under the lock: magic is set). */
    if (a->magic == HEADER_MAGIC && (const unsigned char *)p >= a->data &&
        (const unsigned char *)p < a->user + a->room) {
      to_block(a, b);
      found = (const unsigned char *)p < a->user ? MD_IN_HEAP : MD_INTERIOR;
    }
  } else if (interior && table) {
    for (size_t j = 0; j <= mask; j++) {
      struct header *h = table[j];
      if (h && (const unsigned char *)p >= h->data &&
          (const unsigned char *)p < h->user + h->room) {
        to_block(h, b);
        found = (const unsigned char *)p < h->user ? MD_IN_HEAP : MD_INTERIOR;
        break;
      }
    }
  }
  md_unlock(&lock);
  return found;
}

bool md_secondary_slot(const void *p, struct md_block *b) {
  struct header *h = arena_header(p);
  if (!h || MD_BITS_STATE(__atomic_load_n(&h->meta.bits, __ATOMIC_ACQUIRE)) ==
                MD_STATE_NEVER)
    return false;
  to_block(h, b);
  return true;
}

bool md_secondary_near(const void *p, struct md_block *b) {
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
    struct header *h = table[j];
    if (h && (uintptr_t)p >= h->map && (uintptr_t)p < h->map + h->map_size) {
      to_block(h, b);
      found = true;
    }
  }
  md_unlock(&lock);
  return found;
}

size_t md_secondary_footprint(const struct md_block *b) {
  if (md_pageguard_owns(b->user))
    return md_pageguard_footprint(b);
  return ((const struct header *)((uintptr_t)b->meta))->map_size;
}

void md_secondary_protect(const struct md_block *b) {
  if (md_pageguard_owns(b->user)) {
    md_pageguard_protect(b);
    return;
  }
  uintptr_t begin = ((uintptr_t)b->user) & ~(PAGE - 1);
  uintptr_t end = (uintptr_t)b->user + b->room;
  mprotect((void *)begin, end - begin, PROT_NONE);
  madvise((void *)begin, end - begin, MADV_DONTNEED);
}

void md_secondary_give(const struct md_block *b) {
  if (md_pageguard_owns(b->user)) {
    md_pageguard_give(b);
    return;
  }
  struct header *h = (struct header *)((uintptr_t)b->meta);
  md_lock(&lock);
  long i = find_slot(h->user);
  if (i >= 0)
    delete_at((size_t)i);
  bytes_mapped -= h->map_size;
  bool later = walkers > 0;
  if (later) {
    h->deferred = deferred;
    deferred = h;
  }
  md_unlock(&lock);
  if (!later)
    release(h);
}

void md_secondary_for_each(unsigned states,
                           void (*fn)(const struct md_block *b, void *arg),
                           void *arg) {
  md_pageguard_for_each(states, fn, arg);
  md_lock(&lock);
  if (!used) {
    md_unlock(&lock);
    return;
  }
  size_t n = 0, bytes = used * sizeof(struct header *);
  struct header **list = md_mmap(bytes);
  if (list)
    for (size_t j = 0; j <= mask; j++)
      if (table[j])
        list[n++] = table[j];
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
  struct header *done = NULL;
  if (--walkers == 0) {
    done = deferred;
    deferred = NULL;
  }
  md_unlock(&lock);
  while (done) {
    struct header *next = done->deferred;
    release(done);
    done = next;
  }
}

void md_heap_scan_lock(void) { md_lock(&lock); }
void md_heap_scan_unlock(void) { md_unlock(&lock); }

void md_heap_scan_large_count(size_t *blocks, size_t *bytes) {
  size_t guarded, guarded_bytes;
  md_pageguard_stats(1u << MD_STATE_LIVE, &guarded, &guarded_bytes);
  *blocks = used + guarded;
  *bytes = bytes_mapped + guarded_bytes;
}

void md_heap_scan_large(unsigned states,
                        void (*fn)(const struct md_block *b, void *arg),
                        void *arg) {
  md_pageguard_for_each(states, fn, arg);
  for (size_t j = 0; table && j <= mask; j++) {
    if (!table[j])
      continue;
    struct md_block b;
    to_block(table[j], &b);
    if (states & (1u << md_block_state(&b)))
      fn(&b, arg);
  }
}

void md_secondary_stats(size_t *blocks, size_t *bytes) {
  size_t guarded, guarded_bytes;
  md_pageguard_stats(1u << MD_STATE_LIVE, &guarded, &guarded_bytes);
  md_lock(&lock);
  *blocks = used + guarded;
  *bytes = bytes_mapped + guarded_bytes;
  md_unlock(&lock);
}

void md_secondary_atfork_prepare(void) {
  md_lock(&lock);
  md_pageguard_atfork_prepare();
}
void md_secondary_atfork_parent(void) {
  md_pageguard_atfork_parent();
  md_unlock(&lock);
}
void md_secondary_atfork_child(void) {
  md_pageguard_atfork_child();
  md_lock_reset(&lock);
  walkers = 0; /* a walk in another thread does not go on in the child */
}
