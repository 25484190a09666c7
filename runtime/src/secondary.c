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
  struct header *deferred; /* released during a walk: unmapped after it */
};

static md_lock_t lock = MD_LOCK_INIT;
static struct header **table; /* open addressing, by user pointer */
static size_t mask, used, bytes_mapped;
static int walkers;
static struct header *deferred;

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
  unsigned char *map = mmap(NULL, total, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    errno = ENOMEM;
    return false;
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
  /* Inaccessible: the page between header and data, and everything from
   * the block's last page on (at least one page: total has it). */
  if (mprotect(map + PAGE, PAGE, PROT_NONE) != 0 ||
      mprotect(end, (size_t)(map + total - end), PROT_NONE) != 0) {
    munmap(map, total);
    errno = ENOMEM;
    return false;
  }
  h->magic = HEADER_MAGIC;
  h->map = (uintptr_t)map;
  h->map_size = total;
  h->data = data;
  h->user = user;
  h->size = size;
  h->room = (size_t)(end - user);
  md_lock(&lock);
  bool ok = insert(h);
  if (ok)
    bytes_mapped += total;
  md_unlock(&lock);
  if (!ok) {
    munmap(map, total);
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
  if (i >= 0) {
    to_block(table[i], b);
    found = MD_BLOCK;
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

bool md_secondary_near(const void *p, struct md_block *b) {
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

static void unmap(struct header *h) {
  h->magic = 0;
  munmap((void *)h->map, h->map_size);
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
    unmap(h);
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
    unmap(done);
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
