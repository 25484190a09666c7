/* origin.c - origin ids: every distinct origin (a site descriptor or a
 * caller's return address, see base.h) gets a 32-bit id the first time
 * it is seen, so a block's metadata can name both where it was allocated
 * and where it was freed in 8 bytes.
 *
 * Ids index an array of origins kept in chunks mapped as ids are handed
 * out; 0 means unknown. An origin is found from its value in an
 * open-addressing index: lookups take no lock (an entry is written id first,
 * key last, and never changes); inserts take one lock and may replace the
 * index with one twice as large. Replaced indexes are kept (a reader may
 * still be probing one; they add up to less than the current one), so no
 * reader ever touches unmapped memory. When the array is full, new origins
 * get id 0 and reports say "<unknown>". Never allocates through malloc.
 *
 * The inline lookup (origin.h) looks at an origin's home slot only; an
 * origin that collided sits a few slots further, and the slow path finds it
 * there without the lock (it used to take the lock for every such call: a
 * tenth of a program's allocations could pass through it). Only an insert,
 * once per origin, takes the lock, with every signal blocked: a signal
 * handler that allocates from a new origin on the thread that holds it
 * would otherwise spin on it forever.
 *
 * A site descriptor keeps its id beside it (origin_id, mdebug/site.h): the
 * inline lookup reads that word and needs no index; this file fills it in
 * the first time the site is seen, after the index gave the id, so the word
 * always holds the index's id for that origin (racing threads find the same
 * one under the lock and store the same value). The index still holds sites
 * too: it is what md_origin_of and a second look at the same descriptor
 * agree with. After fork the child keeps both, so ids stay valid. A
 * descriptor never goes away: the version check pins every instrumented
 * module (RTLD_NODELETE, entry.c), so the pointers kept here stay readable
 * after a dlclose. Only the active copy of the runtime (copies.c) gets here:
 * inert copies pass instrumented calls on with the same descriptor, so one
 * table writes every word.
 */
#include <stddef.h>
#include <string.h>

#include "base.h"
#include "lock.h"
#include "origin.h"
#include "scan_contract.h"

#define MAX_ORIGINS MD_ORIGIN_MAX
#define CHUNK_BITS 12 /* origins are kept in mappings of 4096 */
#define FIRST_CAPACITY 1024

/* The word the inline lookup reads is where the pass puts it. */
_Static_assert(sizeof(struct mdebug_site) == MDEBUG_SITE_SIZE &&
                   offsetof(struct mdebug_site, origin_id) ==
                       MDEBUG_SITE_ORIGIN_ID_OFFSET,
               "struct mdebug_site: the layout pass/MdebugPass.cpp emits");

struct md_origin_index *md_origin_index;
/* mask 0 and one empty slot: every lookup misses into the slow path. */
static union {
  struct md_origin_index index;
  char bytes[sizeof(struct md_origin_index) + sizeof(struct md_origin_slot)];
} empty;
#define empty_index (empty.index)
/* Origins by id, in chunks mapped as ids are handed out; [0][0] unused. */
static md_origin_t *by_id[MAX_ORIGINS >> CHUNK_BITS];
static uint32_t next_id = 1;
static md_lock_t lock = MD_LOCK_INIT;

void md_origin_init(void) {
  /* Until the first insert, every lookup misses into the slow path. */
  __atomic_store_n(&md_origin_index, &empty_index, __ATOMIC_RELEASE);
}

static struct md_origin_index *new_index(size_t capacity) {
  struct md_origin_index *x =
      md_mmap(sizeof(*x) + capacity * sizeof(x->slots[0]));
  if (x)
    x->mask = capacity - 1;
  return x;
}

static void put(struct md_origin_index *x, md_origin_t o, uint32_t id) {
  size_t i = md_origin_hash(o) & x->mask;
  while (x->slots[i].key)
    i = (i + 1) & x->mask;
  x->slots[i].id = id;
  __atomic_store_n(&x->slots[i].key, o, __ATOMIC_RELEASE);
}

/* The id of o in x, or 0; no lock needed (see above). */
static uint32_t find(const struct md_origin_index *x, md_origin_t o) {
  for (size_t i = md_origin_hash(o) & x->mask;; i = (i + 1) & x->mask) {
    md_origin_t k = __atomic_load_n(&x->slots[i].key, __ATOMIC_ACQUIRE);
    if (k == o)
      return (uint32_t)x->slots[i].id;
    if (!k)
      return 0;
  }
}

static uint32_t insert(md_origin_t o);

uint32_t md_origin_id_slow(md_origin_t o) {
  if (!o)
    return 0;
  uint32_t id = find(__atomic_load_n(&md_origin_index, __ATOMIC_ACQUIRE), o);
  if (!id && __atomic_load_n(&next_id, __ATOMIC_ACQUIRE) != MAX_ORIGINS) {
    sigset_t old;
    md_lock_signals_blocked(&lock, &old);
    id = insert(o);
    md_unlock_signals_restored(&lock, &old);
  }
  /* A site keeps it (0, ids ran out, is not kept: the word stays 0). Release
   * pairs with the inline lookup's acquire: whoever reads the id can name
   * it (md_origin_of). */
  if (id && !md_origin_is_pc(o))
    __atomic_store_n(&((struct mdebug_site *)o)->origin_id, id,
                     __ATOMIC_RELEASE);
  return id;
}

/* Under the lock: o's id, given one if it has none yet (0 when ids or
 * memory ran out). */
static uint32_t insert(md_origin_t o) {
  struct md_origin_index *x = md_origin_index;
  uint32_t id = find(x, o);
  if (id || next_id == MAX_ORIGINS)
    return id;
  id = next_id;
  md_origin_t **chunk = &by_id[id >> CHUNK_BITS];
  if (!*chunk && !(*chunk = md_mmap(sizeof(md_origin_t) << CHUNK_BITS)))
    return 0;
  size_t capacity = x == &empty_index ? 0 : x->mask + 1;
  if ((size_t)id * 2 > capacity) { /* the load stays under 1/2 */
    size_t cap = capacity ? capacity * 2 : FIRST_CAPACITY;
    struct md_origin_index *bigger = new_index(cap);
    if (!bigger)
      return 0;
    for (size_t i = 0; i < capacity; i++)
      if (x->slots[i].key)
        put(bigger, x->slots[i].key, (uint32_t)x->slots[i].id);
    __atomic_store_n(&md_origin_index, bigger, __ATOMIC_RELEASE);
    x = bigger;
  }
  (*chunk)[id & ((1u << CHUNK_BITS) - 1)] = o;
  __atomic_store_n(&next_id, id + 1, __ATOMIC_RELEASE);
  put(x, o, id);
  return id;
}

md_origin_t md_origin_of(uint32_t id) {
  if (!id || id >= __atomic_load_n(&next_id, __ATOMIC_ACQUIRE))
    return 0;
  return by_id[id >> CHUNK_BITS][id & ((1u << CHUNK_BITS) - 1)];
}

size_t md_origin_count(void) {
  return __atomic_load_n(&next_id, __ATOMIC_ACQUIRE) - 1;
}

void md_origin_atfork_prepare(void) { md_lock(&lock); }
void md_origin_atfork_parent(void) { md_unlock(&lock); }
void md_origin_atfork_child(void) { md_lock_reset(&lock); }
