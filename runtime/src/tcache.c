/* tcache.c - per-thread caches of free slots, one bin per size class, so an
 * allocation or a free touches no shared data and takes no lock: a bin is a
 * small stack of slot indices (its fast paths are inline, in heap.h). An empty bin refills half its capacity from
 * the class's free slots (primary.c: those of the arena this thread's cache
 * was given, first) in one locked batch; a full one gives the older half
 * back, to that arena. A block freed by another thread goes into the
 * freeing thread's cache: there is no hand-off to the thread that
 * allocated it. A bin that overflows with no refill since its last
 * overflow (or since the thread began) belongs to a thread that frees that
 * class but does not allocate it (a consumer): it gives everything back,
 * and its capacity halves, down to MIN_SLOTS, so such a thread does not sit
 * on slots its producer must commit anew; the capacity doubles back at each
 * refill.
 *
 * A thread's cache comes from a pool of mmap'ed caches on its first call and
 * goes back, emptied into the shared stacks, when the thread exits (a
 * pthread key destructor). Calls a thread makes after that (later
 * destructors, glibc's own clean-up) go straight to the shared stacks. In a
 * forked child only the forking thread lives on: the other threads' caches
 * are emptied (their slots are lost for reuse, never handed out twice) and
 * return to the pool.
 *
 * Never allocates through malloc.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>

#include "base.h"
#include "heap_internal.h"
#include "lock.h"
#include "scan_contract.h"

#define BIN_BYTES (128u << 10) /* at most this many bytes of blocks a bin */
#define MIN_SLOTS 8 /* the least a consumer's bin keeps (see the top) */

#define bin md_bin
#define cache md_tcache
#define my_cache md_tcache_self

static struct cache *all_caches, *free_caches;
static md_lock_t pool_lock = MD_LOCK_INIT;
static pthread_key_t cache_key;
static unsigned next_arena; /* the arena the next thread's cache takes */
__thread struct cache *md_tcache_self __attribute__((tls_model("initial-exec")));
/* Set once this thread's cache went back to the pool (it is exiting). */
static __thread bool cache_gone __attribute__((tls_model("initial-exec")));

static void drain_bin(struct cache *c, unsigned k, struct bin *b, uint32_t n) {
  md_primary_drain(k, c->arena, b->slots, n);
  memmove(b->slots, b->slots + n, (b->count - n) * sizeof(uint32_t));
  b->count -= n;
}

/* Thread exit: everything back to the shared stacks, the cache to the pool. */
static void release_cache(void *arg) {
  struct cache *c = arg;
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    if (c->bins[k].count)
      drain_bin(c, k, &c->bins[k], c->bins[k].count);
  my_cache = NULL;
  cache_gone = true;
  md_lock(&pool_lock);
  c->next_free = free_caches;
  free_caches = c;
  md_unlock(&pool_lock);
}

void md_tcache_init(void) {
  pthread_key_create(&cache_key, release_cache);
}

static void reset(struct cache *c) {
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++) {
    c->bins[k].count = 0;
    c->bins[k].max = md_heap.classes[k].cache_max;
    c->bins[k].refills = 0;
  }
}

/* NULL when the thread is exiting or there is no memory: the caller then
 * goes to the shared stacks directly. */
static MD_NOINLINE struct cache *acquire(void) {
  if (cache_gone)
    return NULL;
  md_lock(&pool_lock);
  struct cache *c = free_caches;
  if (c) {
    free_caches = c->next_free;
  } else if ((c = md_mmap(sizeof(struct cache))) != NULL) {
    c->next_all = all_caches;
    all_caches = c;
  }
  if (c) {
    c->arena = next_arena++ % MD_ARENAS;
    md_primary_claim_arena(c->arena);
  }
  md_unlock(&pool_lock);
  if (!c)
    return NULL;
  reset(c);
  /* Set before pthread_setspecific, which may allocate (and come back). */
  my_cache = c;
  pthread_setspecific(cache_key, c);
  return c;
}

static MD_NOINLINE bool take_slow(unsigned k, uint32_t *slot) {
  struct cache *c = my_cache ? my_cache : acquire();
  if (!c)
    return md_primary_refill(k, 0, slot, 1) == 1;
  struct bin *b = &c->bins[k];
  if (!b->count) {
    uint32_t full = md_heap.classes[k].cache_max;
    b->max = b->max * 2 < full ? b->max * 2 : full;
    if (b->refills < UINT32_MAX)
      b->refills++;
    b->count =
        (uint32_t)md_primary_refill(k, c->arena, b->slots, (b->max + 1) / 2);
  }
  if (!b->count)
    return false;
  *slot = b->slots[--b->count];
  return true;
}

bool md_tcache_take(unsigned k, uint32_t *slot) {
  struct cache *c = my_cache;
  if (MD_LIKELY(c != NULL)) {
    struct bin *b = &c->bins[k];
    if (MD_LIKELY(b->count)) {
      *slot = b->slots[--b->count];
      return true;
    }
  }
  return take_slow(k, slot);
}

static MD_NOINLINE void give_slow(unsigned k, uint32_t slot) {
  struct cache *c = my_cache ? my_cache : acquire();
  if (!c) {
    md_primary_drain(k, 0, &slot, 1);
    return;
  }
  struct bin *b = &c->bins[k];
  if (b->count >= b->max) {
    if (b->refills) {
      drain_bin(c, k, b, (b->count + 1) / 2);
    } else {
      drain_bin(c, k, b, b->count);
      b->max = b->max / 2 > MIN_SLOTS ? b->max / 2 : MIN_SLOTS;
    }
    b->refills = 0;
  }
  b->slots[b->count++] = slot;
}

void md_tcache_give(unsigned k, uint32_t slot) {
  struct cache *c = my_cache;
  if (MD_LIKELY(c != NULL)) {
    struct bin *b = &c->bins[k];
    if (MD_LIKELY(b->count < b->max)) {
      b->slots[b->count++] = slot;
      return;
    }
  }
  give_slow(k, slot);
}

/* The cache capacity of a class: BIN_BYTES of blocks, 8 to BIN_SLOTS (a
 * thread going back to the class lock every few blocks of a large class
 * would bounce it between cores). */
uint32_t md_tcache_capacity(size_t block_size) {
  size_t n = BIN_BYTES / block_size;
  return n < 8 ? 8 : n > MD_BIN_SLOTS ? MD_BIN_SLOTS : (uint32_t)n;
}

void md_tcache_atfork_prepare(void) { md_lock(&pool_lock); }
void md_tcache_atfork_parent(void) { md_unlock(&pool_lock); }
void md_tcache_atfork_child(void) {
  md_lock_reset(&pool_lock);
  free_caches = NULL;
  for (struct cache *c = all_caches; c; c = c->next_all)
    if (c != my_cache) {
      reset(c);
      c->next_free = free_caches;
      free_caches = c;
    }
}
