/* scan_heap.c - the heap's side of the leak scan's contract (scan_contract.h).
 *
 * The one place that turns mdebug's heap into the nodes the scan sees: the
 * primary's classes are the pools (a class's region, its slots by
 * arithmetic, its metadata), the secondary's and page guards' live blocks
 * are the large blocks (md_heap_scan_large), mmap.c's records are the
 * mappings. A node's flags are read from the block's metadata bits or the
 * mapping's record: mdebug_ignore()'s mark, the reported mark and the fork
 * epoch (a block or mapping the child inherited is the parent's to report).
 *
 * Only while the world is stopped, with md_scan_heap_lock held, as the
 * contract says: nothing here takes a lock but those two functions. The
 * mappings are copied once (md_scan_maps_collect) into memory of our own,
 * which describe and mark_reported read; md_scan_heap_unlock frees it.
 * The exceptions, for the leak check with threads running (leak_track,
 * mdebug_ignore): md_scan_live_each and md_scan_live_maps_each walk with
 * the heap's and mmap.c's own locking, md_scan_ignore marks one block or
 * mapping.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "base.h"
#include "heap.h"
#include "lifecycle.h"
#include "mappings.h"
#include "origin.h"
#include "scan_contract.h"

_Static_assert(MD_CLASS_COUNT <= MD_SCAN_POOLS_MAX, "a pool a class");

static struct md_mapping *maps; /* the copy of mmap.c's records */
static size_t maps_bytes;

void md_scan_heap_lock(void) {
  md_heap_scan_lock();
  md_mmap_scan_lock();
}

void md_scan_heap_unlock(void) {
  md_munmap(maps, maps_bytes);
  maps = NULL;
  maps_bytes = 0;
  md_mmap_scan_unlock();
  md_heap_scan_unlock();
}

static unsigned epoch_now(void) { return md_fork_epoch & MD_EPOCH_MASK; }

/* A block's flags; ARRAY_NEW only for large blocks (md_scan_slot_of sees
 * to slots' cookies), as the scan reads it only there. */
static inline uint8_t block_flags(uint32_t bits, bool large) {
  unsigned marks = MD_BITS_MARKS(bits);
  uint8_t f = (marks & MD_MARK_IGNORED) ? MD_SCAN_IGNORED : 0;
  if ((marks & MD_MARK_REPORTED) || MD_BITS_EPOCH(bits) != epoch_now())
    f |= MD_SCAN_EXCUSED;
  if (large && md_family_is_array(md_op_family(MD_BITS_ALLOC_OP(bits))))
    f |= MD_SCAN_ARRAY_NEW;
  return f;
}

static inline void node_of_block(const struct md_block *b, uint8_t kind,
                                 struct md_scan_node *n) {
  n->begin = (uintptr_t)b->user;
  n->end = n->begin + md_block_usable(b);
  n->size = b->size;
  n->handle = b->meta;
  n->extra = b->stacks;
  n->group = 0;
  n->kind = kind;
  n->flags = block_flags(b->meta->bits, kind == MD_SCAN_NODE_LARGE);
}

/* ---- heap blocks: the primary's classes ---------------------------------- */

unsigned md_scan_pools(void) { return MD_CLASS_COUNT; }

uint32_t md_scan_pool_slots(unsigned pool) { return md_fresh(pool); }

uint32_t md_scan_pool_live(unsigned pool) {
  uint32_t n = md_fresh(pool), live = 0;
  for (uint32_t i = 0; i < n; i++)
    live += MD_BITS_STATE(md_meta_at(pool, i)->bits) == MD_STATE_LIVE;
  return live;
}

void md_scan_pools_range(uintptr_t *lo, size_t *size) {
  *lo = md_heap.base;
  *size = md_heap.size;
}

bool md_scan_slot_of(uintptr_t w, bool start_only, unsigned *pool,
                     uint32_t *slot) {
  unsigned k = md_region_of((const void *)w);
  uint32_t within;
  if (!k)
    return false;
  uint32_t i = md_slot_of(k, (const void *)w, &within);
  if (i >= md_fresh(k) || within < md_heap.guard)
    return false;
  const struct md_meta *m = md_meta_at(k, i);
  uint32_t bits = m->bits;
  if (MD_BITS_STATE(bits) != MD_STATE_LIVE)
    return false;
  size_t pos = within - md_heap.guard, lead = MD_BITS_LEAD(bits) * 16;
  if (pos < lead)
    return false;
  size_t off = pos - lead, usable = m->size + md_heap.expand;
  /* past the start: an interior pointer, or new T[0]'s cookie end */
  if (off != 0 && (start_only || off >= usable) &&
      !(usable == sizeof(size_t) && off == usable &&
        md_family_is_array(md_op_family(MD_BITS_ALLOC_OP(bits))) &&
        *(const size_t *)(w - off) == 0))
    return false;
  *pool = k;
  *slot = i;
  return true;
}

/* md_heap_block_at's view, without its call where the metadata fits the
 * slot (it bounds a damaged block: then it is asked). */
bool md_scan_slot_node(unsigned pool, uint32_t slot, struct md_scan_node *n) {
  struct md_meta *m = md_meta_at(pool, slot);
  uint32_t bits = __atomic_load_n(&m->bits, __ATOMIC_ACQUIRE);
  if (MD_BITS_STATE(bits) != MD_STATE_LIVE)
    return false;
  size_t room = md_heap.classes[pool].size, lead = MD_BITS_LEAD(bits) * 16;
  if (MD_UNLIKELY(lead >= room || m->size + md_heap.expand > room - lead)) {
    struct md_block b;
    md_heap_block_at(pool, slot, &b);
    node_of_block(&b, MD_SCAN_NODE_SLOT, n);
    return true;
  }
  n->begin = (uintptr_t)md_slot_user(pool, slot) + lead;
  n->end = n->begin + m->size + md_heap.expand;
  n->size = m->size;
  n->handle = m;
  n->extra = md_heap.stacks ? md_stacks_at(pool, slot) : NULL;
  n->group = 0;
  n->kind = MD_SCAN_NODE_SLOT;
  n->flags = block_flags(bits, false);
  return true;
}

/* ---- large blocks: the secondary's and page guards' ---------------------- */

size_t md_scan_large_count(void) {
  size_t blocks, mapped;
  md_heap_scan_large_count(&blocks, &mapped);
  return blocks;
}

/* A caller's fn and arg, carried through a heap walk's callback. */
struct node_each {
  void (*fn)(const struct md_scan_node *n, void *arg);
  void *arg;
};

static void large_one(const struct md_block *b, void *arg) {
  struct node_each *e = arg;
  struct md_scan_node n;
  node_of_block(b, MD_SCAN_NODE_LARGE, &n);
  e->fn(&n, e->arg);
}

void md_scan_large_each(void (*fn)(const struct md_scan_node *n, void *arg),
                        void *arg) {
  struct node_each e = {fn, arg};
  md_heap_scan_large(1u << MD_STATE_LIVE, large_one, &e);
}

/* ---- mappings: mmap.c's ---------------------------------------------------- */

static void node_of_mapping(const struct md_mapping *m, struct md_scan_node *n) {
  uint8_t f = 0;
  if (!(m->prot & PROT_READ) || !(m->flags & MD_MAP_ANON))
    f |= MD_SCAN_UNREAD;
  if (m->marks & MD_MAP_MARK_IGNORED)
    f |= MD_SCAN_IGNORED;
  if ((m->marks & MD_MAP_MARK_REPORTED) || m->epoch != epoch_now())
    f |= MD_SCAN_EXCUSED;
  *n = (struct md_scan_node){m->begin, m->end, m->end - m->begin, m,
                             NULL, m->group, MD_SCAN_NODE_MAPPING, f};
}

size_t md_scan_maps_collect(struct md_scan_node *out, size_t cap) {
  if (!out || !cap)
    return md_mmap_scan_collect(NULL, 0);
  md_munmap(maps, maps_bytes);
  maps_bytes = cap * sizeof(*maps);
  if (!(maps = md_mmap(maps_bytes))) {
    maps_bytes = 0;
    return 0;
  }
  size_t n = md_mmap_scan_collect(maps, cap);
  for (size_t i = 0; i < n && i < cap; i++)
    node_of_mapping(&maps[i], &out[i]);
  return n;
}

/* ---- outside a scan: leak_track's listing, mdebug_ignore ----------------- */

static void live_one(const struct md_block *b, void *arg) {
  struct node_each *e = arg;
  struct md_scan_node n;
  node_of_block(b, b->klass ? MD_SCAN_NODE_SLOT : MD_SCAN_NODE_LARGE, &n);
  /* md_heap_for_each read the state before this: still live? */
  if (MD_BITS_STATE(__atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE)) ==
      MD_STATE_LIVE)
    e->fn(&n, e->arg);
}

void md_scan_live_each(void (*fn)(const struct md_scan_node *n, void *arg),
                       void *arg) {
  struct node_each e = {fn, arg};
  md_heap_for_each(1u << MD_STATE_LIVE, live_one, &e);
}

void md_scan_live_maps_each(void (*fn)(const struct md_scan_node *n,
                                       void *arg),
                            void *arg) {
  /* Copied first (mmap.c locks its shards while it copies), with room for
   * a few made meanwhile. */
  size_t n = md_mmap_collect(NULL, 0);
  if (!n)
    return;
  size_t bytes = (n + 16) * sizeof(struct md_mapping);
  struct md_mapping *copy = md_mmap(bytes);
  if (!copy)
    return;
  size_t cap = n + 16;
  n = md_mmap_collect(copy, cap);
  for (size_t i = 0; i < n && i < cap; i++) {
    struct md_scan_node node;
    node_of_mapping(&copy[i], &node);
    fn(&node, arg);
  }
  md_munmap(copy, bytes);
}

bool md_scan_ignore(const void *p) {
  struct md_block b;
  if (p && md_heap_find(p, &b) == MD_BLOCK) {
    uint32_t bits = __atomic_load_n(&b.meta->bits, __ATOMIC_ACQUIRE);
    uint32_t mark = (uint32_t)MD_MARK_IGNORED << MD_BITS_MARK_SHIFT;
    while (MD_BITS_STATE(bits) == MD_STATE_LIVE &&
           !__atomic_compare_exchange_n(&b.meta->bits, &bits, bits | mark, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      ;
    if (MD_BITS_STATE(bits) == MD_STATE_LIVE)
      return true;
  }
  return p && md_mmap_ignore(p); /* in one of the program's mappings */
}

/* ---- reports -------------------------------------------------------------- */

void md_scan_describe(const struct md_scan_node *n, struct md_scan_block *b) {
  if (n->kind == MD_SCAN_NODE_MAPPING) {
    const struct md_mapping *m = n->handle;
    b->origin = m->origin;
    b->stack = m->stack;
    b->alloc_op = m->op;
    b->map_prot = (uint8_t)m->prot;
    b->map_flags = m->flags;
    return;
  }
  const struct md_meta *meta = n->handle;
  const struct md_stacks *stacks = n->extra;
  b->origin = md_origin_of(meta->alloc_origin);
  b->stack = stacks ? stacks->alloc_stack : 0;
  b->alloc_op = (uint8_t)MD_BITS_ALLOC_OP(meta->bits);
}

void md_scan_mark_reported(const struct md_scan_node *n) {
  if (n->kind == MD_SCAN_NODE_MAPPING) {
    md_mmap_scan_mark(n->handle, MD_MAP_MARK_REPORTED);
    return;
  }
  struct md_meta *meta = (struct md_meta *)n->handle;
  uint32_t bits = meta->bits;
  __atomic_store_n(&meta->bits,
                   bits | ((uint32_t)MD_MARK_REPORTED << MD_BITS_MARK_SHIFT),
                   __ATOMIC_RELAXED);
}
