/* track.c - the tables of every block the runtime handed out and has not
 * released: live blocks and blocks held by the free_track quarantine.
 *
 * Each block has a slot, an index into one global array of 64-bit entries
 * that its header records. The array is cut into slabs of 4096 slots; each
 * slab belongs to one thread's table. A thread takes slots for its blocks
 * from its own table, the most recently released first (an entry still in
 * cache), with plain loads and stores: no lock and no atomic instruction on
 * an allocation. A free reads the slot from the header and changes the entry
 * from "live p" to "freed p" (or empty) with one compare-and-swap, which is
 * what proves the pointer is a live block (a header is only a hint: a
 * foreign pointer's "header" is whatever bytes precede it, and the swap
 * fails) and what makes one of two racing frees of a block the double free.
 * A slot released by another thread goes back to its table through a
 * lock-free list the owner empties when its own stack of released slots is.
 *
 * Walks read entries and then headers while other threads run; a block must
 * not go back to glibc meanwhile. Releasing empties the entry first, then
 * waits while a walk runs (md_track_wait_for_walks); a walk announces
 * itself, then forces a memory barrier on every thread (membarrier), so
 * either the walk sees the entry empty or the releaser sees the walk. Where
 * membarrier is missing, releasers pay a fence instead.
 *
 * Reading the header before a pointer is safe when it is in the pointer's
 * own page; a block whose header would cross into the previous page (page
 * aligned blocks, for one) goes into a global hash set sharded by pointer
 * hash instead, under locks, and is found without touching memory before
 * the pointer. Those sets use linear probing with backward-shift deletion; a
 * deletion copies each moved entry before clearing its old slot, so a
 * lock-free reader never misses an entry (it may see one twice).
 *
 * A table outlives its thread (its blocks live on) and is handed to the next
 * new thread; a slab never moves and is never unmapped. Entries hold
 * pointers bit-inverted with their state, so a conservative scan of memory
 * never mistakes them for references. Never allocates through malloc.
 */
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "chunk.h"
#include "lock.h"

#define SHARD_BITS 6
#define SHARD_COUNT (1u << SHARD_BITS)
#define SHARD_CAPACITY 64 /* initial slots per shard, a power of two */

#define SLAB_BITS 12
#define SLAB_SLOTS (1u << SLAB_BITS)
#define MAX_SLABS ((1u << (32 - SLAB_BITS)) - 1) /* so no slot is NO_SLOT */
#define NO_SLOT UINT32_MAX

/* Entries: EMPTY (never used or released), a block: ~(pointer | state)
 * (blocks are 16-aligned, so the low nibble is 0xf live or 0xe freed), or a
 * link of a table's list of slots other threads released: (next << 4) | 1. */
#define SLOT_EMPTY ((uintptr_t)0)
#define STATE_LIVE ((uintptr_t)0)
#define STATE_FREED ((uintptr_t)1)

static inline uintptr_t encode(const void *p, uintptr_t state) {
  return ~((uintptr_t)p | state);
}
static inline bool is_block(uintptr_t e) { return (e & 14) == 14; }
static inline uintptr_t remote_link(uint32_t next) {
  return ((uintptr_t)next << 4) | 1;
}
static inline uint32_t remote_next(uintptr_t e) { return (uint32_t)(e >> 4); }
static inline uintptr_t decode_ptr(uintptr_t e) { return ~e & ~(uintptr_t)15; }
static inline uintptr_t decode_state(uintptr_t e) { return ~e & 15; }

static inline enum md_track_state state_of(uintptr_t e, const void *p) {
  if (e == encode(p, STATE_LIVE))
    return MD_TRACK_LIVE;
  if (e == encode(p, STATE_FREED))
    return MD_TRACK_FREED;
  return MD_TRACK_ABSENT;
}

/* A thread's table: the slabs it owns and their released slots. Only its
 * thread touches it, but for remote_head. */
struct table {
  uint32_t fresh, fresh_end; /* never used slots of the newest slab */
  uint32_t *released;        /* released slots, a stack: the last one is */
  size_t released_count;     /* the first reused (its entry still cached) */
  size_t released_capacity;  /* >= owned */
  size_t owned;              /* slots of the table's slabs */
  uint32_t remote_head;      /* slots other threads released, or NO_SLOT */
  struct table *next_free;   /* tables of exited threads */
  struct table *next_all;
} __attribute__((aligned(64)));

struct slab {
  uintptr_t *slots; /* SLAB_SLOTS entries */
  struct table *owner;
};

static struct slab *slabs; /* MAX_SLABS, reserved at init, touched as used */
static uint32_t slab_count;
static md_lock_t slabs_lock = MD_LOCK_INIT;

static struct table *all_tables, *free_tables;
static md_lock_t tables_lock = MD_LOCK_INIT;
static pthread_key_t table_key;
static __thread struct table *my_table __attribute__((tls_model("initial-exec")));
bool md_track_on;
static int walkers;        /* walks in progress */
bool md_track_membarrier;  /* else releasers fence */

/* ---- the sharded hash set, for blocks whose header may not be read ------- */

struct set {
  md_lock_t lock;
  uintptr_t *slots;
  size_t mask; /* capacity - 1 */
  size_t used;
} __attribute__((aligned(64)));

static struct set shards[SHARD_COUNT];

static inline uint64_t hash(const void *p) {
  uint64_t h = ((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}

static inline struct set *shard_of(const void *p) {
  return &shards[hash(p) >> (64 - SHARD_BITS)];
}

/* Would p's header lie (partly) in the page before p's? */
static inline bool header_straddles(const void *p) {
  return ((uintptr_t)p & 4095) < md_layout.prefix;
}

/* A slot array carries its own mask in the word before slot 0, so a reader
 * that loads the array pointer once (the leak scanner, with the owner
 * stopped, maybe in the middle of a rehash) always has a matching mask. */
static uintptr_t *new_slots(size_t capacity) {
  uintptr_t *s = md_mmap((capacity + 1) * sizeof(uintptr_t));
  if (!s)
    md_die("out of memory for the block table (mmap failed)");
  s[0] = capacity - 1;
  return s + 1;
}

/* The shards' first arrays share one mapping (9 pages, not 64), made at
 * init; only arrays grown later are mapped, and unmapped, one by one. */
static uintptr_t *first_slots;

static void free_slots(uintptr_t *slots) {
  if (slots >= first_slots &&
      slots < first_slots + SHARD_COUNT * (SHARD_CAPACITY + 1))
    return;
  md_munmap(slots - 1, (slots[-1] + 2) * sizeof(uintptr_t));
}

/* All called with s->lock held. */
static long set_find(struct set *s, const void *p) {
  for (size_t i = hash(p) & s->mask;; i = (i + 1) & s->mask) {
    uintptr_t e = s->slots[i];
    if (e == SLOT_EMPTY)
      return -1;
    if (decode_ptr(e) == (uintptr_t)p)
      return (long)i;
  }
}

static void put(uintptr_t *slots, size_t mask, uintptr_t e) {
  size_t i = hash((void *)decode_ptr(e)) & mask;
  while (slots[i] != SLOT_EMPTY)
    i = (i + 1) & mask;
  __atomic_store_n(&slots[i], e, __ATOMIC_RELEASE);
}

/* Keeps the load at most 1/2 (short probes): doubles when it would pass. */
static void set_insert(struct set *s, const void *p) {
  size_t capacity = s->mask + 1;
  if ((s->used + 1) * 2 > capacity) {
    uintptr_t *slots = new_slots(capacity * 2), *old = s->slots;
    for (size_t i = 0; i < capacity; i++)
      if (old[i] != SLOT_EMPTY)
        put(slots, capacity * 2 - 1, old[i]);
    /* The new array is complete before it is published. */
    __atomic_store_n(&s->slots, slots, __ATOMIC_RELEASE);
    s->mask = capacity * 2 - 1;
    free_slots(old);
  }
  put(s->slots, s->mask, encode(p, STATE_LIVE));
  s->used++;
}

/* Backward-shift deletion: each later entry of the probe run that may move
 * into the hole does (copied first, its old slot reused after), then the
 * last hole is emptied. */
static void set_delete(struct set *s, long i) {
  size_t mask = s->mask, hole = (size_t)i;
  for (size_t j = (hole + 1) & mask;; j = (j + 1) & mask) {
    uintptr_t e = s->slots[j];
    if (e == SLOT_EMPTY)
      break;
    size_t home = hash((void *)decode_ptr(e)) & mask;
    if (((j - home) & mask) >= ((j - hole) & mask)) {
      __atomic_store_n(&s->slots[hole], e, __ATOMIC_RELEASE);
      hole = j;
    }
  }
  __atomic_store_n(&s->slots[hole], SLOT_EMPTY, __ATOMIC_RELEASE);
  s->used--;
}

/* ---- thread tables and their slabs --------------------------------------- */

static inline uintptr_t *entry_at(uint32_t slot) {
  return &slabs[slot >> SLAB_BITS].slots[slot & (SLAB_SLOTS - 1)];
}

/* Thread exit: the table, with its blocks, waits for the next new thread. */
static void release_table(void *t) {
  struct table *table = t;
  md_lock(&tables_lock);
  table->next_free = free_tables;
  free_tables = table;
  md_unlock(&tables_lock);
  my_table = NULL;
}

static MD_NOINLINE struct table *acquire_table(void) {
  md_lock(&tables_lock);
  struct table *t = free_tables;
  if (t) {
    free_tables = t->next_free;
  } else {
    t = md_mmap(sizeof(struct table));
    if (!t)
      md_die("out of memory for a block table (mmap failed)");
    t->remote_head = NO_SLOT;
    t->next_all = all_tables;
    __atomic_store_n(&all_tables, t, __ATOMIC_RELEASE);
  }
  md_unlock(&tables_lock);
  my_table = t;
  pthread_setspecific(table_key, t);
  return t;
}

/* Gives t a new slab (its thread only). The slab is complete before
 * slab_count publishes it. */
static MD_NOINLINE void add_slab(struct table *t) {
  md_lock(&slabs_lock);
  uint32_t k = slab_count;
  if (k == MAX_SLABS)
    md_die("more than 4 billion blocks tracked at once");
  uintptr_t *slots = md_mmap(SLAB_SLOTS * sizeof(uintptr_t));
  if (!slots)
    md_die("out of memory for the block table (mmap failed)");
  slabs[k].slots = slots;
  slabs[k].owner = t;
  __atomic_store_n(&slab_count, k + 1, __ATOMIC_RELEASE);
  md_unlock(&slabs_lock);
  t->fresh = k << SLAB_BITS;
  t->fresh_end = (k + 1) << SLAB_BITS;
  /* Room in the stack for every slot the table now has. */
  t->owned += SLAB_SLOTS;
  if (t->owned > t->released_capacity) {
    size_t capacity = t->released_capacity ? t->released_capacity * 2 : SLAB_SLOTS;
    uint32_t *stack = md_mmap(capacity * sizeof(uint32_t));
    if (!stack)
      md_die("out of memory for the block table (mmap failed)");
    uint32_t *old = t->released;
    size_t old_capacity = t->released_capacity;
    if (old)
      memcpy(stack, old, t->released_count * sizeof(uint32_t));
    /* Switched before the old one goes: a child forked in between has a
     * complete stack either way. */
    __atomic_store_n(&t->released, stack, __ATOMIC_RELEASE);
    t->released_capacity = capacity;
    md_munmap(old, old_capacity * sizeof(uint32_t));
  }
}

/* Moves the slots other threads released to t's own stack. */
static MD_NOINLINE void take_remote(struct table *t) {
  uint32_t slot = __atomic_exchange_n(&t->remote_head, NO_SLOT, __ATOMIC_ACQUIRE);
  while (slot != NO_SLOT) {
    uintptr_t *e = entry_at(slot);
    uint32_t next = remote_next(*e);
    __atomic_store_n(e, SLOT_EMPTY, __ATOMIC_RELAXED);
    t->released[t->released_count] = slot;
    __atomic_store_n(&t->released_count, t->released_count + 1, __ATOMIC_RELEASE);
    slot = next;
  }
}

/* t's own thread only. The count changes after the stack does, so a fork
 * between the two loses a slot at worst, never hands one out twice. */
static inline uint32_t take_slot(struct table *t) {
  if (!t->released_count &&
      __atomic_load_n(&t->remote_head, __ATOMIC_RELAXED) != NO_SLOT)
    take_remote(t);
  size_t n = t->released_count;
  if (n) {
    uint32_t slot = t->released[n - 1];
    __atomic_store_n(&t->released_count, n - 1, __ATOMIC_RELEASE);
    return slot;
  }
  if (t->fresh == t->fresh_end)
    add_slab(t);
  return t->fresh++;
}

/* Empties a block's entry and gives its slot back to the table owning it. */
static inline void give_slot(uint32_t slot) {
  struct table *t = slabs[slot >> SLAB_BITS].owner;
  uintptr_t *e = entry_at(slot);
  if (MD_LIKELY(t == my_table)) {
    __atomic_store_n(e, SLOT_EMPTY, __ATOMIC_RELEASE);
    size_t n = t->released_count;
    t->released[n] = slot;
    __atomic_store_n(&t->released_count, n + 1, __ATOMIC_RELEASE);
    return;
  }
  uint32_t head = __atomic_load_n(&t->remote_head, __ATOMIC_RELAXED);
  do
    __atomic_store_n(e, remote_link(head), __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(&t->remote_head, &head, slot, true,
                                      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

/* ---- the interface ------------------------------------------------------- */

void md_track_init(void) {
  md_track_on = md_opt.verify_pointers || md_opt.leak_track || md_opt.leak_check ||
            md_opt.free_track || md_backtrace_enabled();
  if (!md_track_on)
    return;
  slabs = md_mmap(MAX_SLABS * sizeof(struct slab)); /* reserved, not touched */
  if (!slabs)
    md_die("out of memory for the block table (mmap failed)");
  first_slots = md_mmap(SHARD_COUNT * (SHARD_CAPACITY + 1) * sizeof(uintptr_t));
  if (!first_slots)
    md_die("out of memory for the block table (mmap failed)");
  for (unsigned i = 0; i < SHARD_COUNT; i++) {
    shards[i].slots = first_slots + i * (SHARD_CAPACITY + 1) + 1;
    shards[i].slots[-1] = SHARD_CAPACITY - 1;
    shards[i].mask = SHARD_CAPACITY - 1;
  }
  pthread_key_create(&table_key, release_table);
  long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);
  md_track_membarrier =
      cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) == 0;
}

void md_track_insert_live(void *user) {
  if (MD_UNLIKELY(header_straddles(user))) {
    struct set *s = shard_of(user);
    md_lock(&s->lock);
    set_insert(s, user);
    md_unlock(&s->lock);
    return;
  }
  struct table *t = my_table ? my_table : acquire_table();
  uint32_t slot = take_slot(t);
  md_chunk_of(user)->slot = slot;
  /* The header is complete before the entry publishes the block. */
  __atomic_store_n(entry_at(slot), encode(user, STATE_LIVE), __ATOMIC_RELEASE);
}

/* The entry a header names, or NULL when no slab holds that slot. */
static inline uintptr_t *entry_of(const void *user, uint32_t *slot) {
  *slot = md_chunk_of(user)->slot;
  if ((*slot >> SLAB_BITS) >= __atomic_load_n(&slab_count, __ATOMIC_ACQUIRE))
    return NULL; /* not a header of ours: not a block of ours */
  return entry_at(*slot);
}

/* For a block whose header may not be read: its shard, locked, and its
 * index there (-1: not listed). The caller unlocks. */
static struct set *lock_listed(const void *user, long *index) {
  struct set *s = shard_of(user);
  md_lock(&s->lock);
  *index = set_find(s, user);
  return s;
}

static MD_NOINLINE enum md_track_state shard_release(void *user, bool keep) {
  long i;
  struct set *s = lock_listed(user, &i);
  enum md_track_state was = i < 0 ? MD_TRACK_ABSENT : state_of(s->slots[i], user);
  if (was == MD_TRACK_LIVE) {
    if (keep)
      __atomic_store_n(&s->slots[i], encode(user, STATE_FREED), __ATOMIC_RELEASE);
    else
      set_delete(s, i);
  }
  md_unlock(&s->lock);
  return was;
}

enum md_track_state md_track_release(void *user, bool keep) {
  if (MD_UNLIKELY(header_straddles(user)))
    return shard_release(user, keep);
  uint32_t slot;
  uintptr_t *e = entry_of(user, &slot);
  if (!e)
    return MD_TRACK_ABSENT;
  uintptr_t seen = encode(user, STATE_LIVE);
  if (__atomic_compare_exchange_n(e, &seen,
                                  keep ? encode(user, STATE_FREED) : SLOT_EMPTY,
                                  false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    if (!keep)
      give_slot(slot);
    return MD_TRACK_LIVE;
  }
  return state_of(seen, user);
}

enum md_track_state md_track_lookup(void *user) {
  if (MD_UNLIKELY(header_straddles(user))) {
    long i;
    struct set *s = lock_listed(user, &i);
    enum md_track_state st = i < 0 ? MD_TRACK_ABSENT : state_of(s->slots[i], user);
    md_unlock(&s->lock);
    return st;
  }
  uint32_t slot;
  uintptr_t *e = entry_of(user, &slot);
  return e ? state_of(__atomic_load_n(e, __ATOMIC_ACQUIRE), user) : MD_TRACK_ABSENT;
}

/* A quarantined block leaves: only the thread whose ring held it gets here,
 * and a racing second free of it only reads the entry. */
void md_track_remove(void *user) {
  if (MD_UNLIKELY(header_straddles(user))) {
    long i;
    struct set *s = lock_listed(user, &i);
    if (i >= 0)
      set_delete(s, i);
    md_unlock(&s->lock);
    return;
  }
  uint32_t slot;
  uintptr_t *e = entry_of(user, &slot);
  if (e && state_of(*e, user) != MD_TRACK_ABSENT)
    give_slot(slot);
}

/* Called before a block that was tracked goes back to glibc, after its
 * entry was emptied: waits out any walk that may have seen the entry. */
void md_track_wait_for_walks(void) {
  if (!md_track_membarrier)
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  while (MD_UNLIKELY(__atomic_load_n(&walkers, __ATOMIC_ACQUIRE)))
    sched_yield();
}

static void walk_begin(void) {
  __atomic_add_fetch(&walkers, 1, __ATOMIC_SEQ_CST);
  if (md_track_membarrier)
    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0);
}

static void walk_end(void) { __atomic_sub_fetch(&walkers, 1, __ATOMIC_RELEASE); }

/* ---- walks ---------------------------------------------------------------- */

struct walk {
  uintptr_t want;
  void (*fn)(void *user, void *arg);
  void *arg;
};

/* Reads each entry once, so this is also safe without the lock while the
 * owner is stopped (see md_track_for_each_stopped). */
static void walk_entries(const uintptr_t *slots, size_t n, const struct walk *w) {
  for (size_t i = 0; i < n; i++) {
    uintptr_t e = __atomic_load_n(&slots[i], __ATOMIC_RELAXED);
    if (is_block(e) && decode_state(e) == w->want)
      w->fn((void *)decode_ptr(e), w->arg);
  }
}

static void walk_all(const struct walk *w, bool lock) {
  for (unsigned k = 0; k < SHARD_COUNT; k++) {
    struct set *s = &shards[k];
    if (lock)
      md_lock(&s->lock);
    uintptr_t *slots = __atomic_load_n(&s->slots, __ATOMIC_ACQUIRE);
    walk_entries(slots, slots[-1] + 1, w);
    if (lock)
      md_unlock(&s->lock);
  }
  uint32_t n = __atomic_load_n(&slab_count, __ATOMIC_ACQUIRE);
  for (uint32_t k = 0; k < n; k++)
    walk_entries(slabs[k].slots, SLAB_SLOTS, w);
}

void md_track_for_each(enum md_track_state state,
                       void (*fn)(void *user, void *arg), void *arg) {
  struct walk w = {state == MD_TRACK_LIVE ? STATE_LIVE : STATE_FREED, fn, arg};
  if (!md_track_on)
    return;
  walk_begin();
  walk_all(&w, true);
  walk_end();
}

static void count_one(void *user, void *arg) { (*(size_t *)arg)++; }

size_t md_track_count(enum md_track_state state) {
  size_t n = 0;
  md_track_for_each(state, count_one, &n);
  return n;
}

/* For the leak scanner, with every other thread stopped: no lock is taken
 * (a stopped thread may hold one). Each entry is one aligned word, a slab is
 * published only when complete and a shard's array only when filled, so
 * what is read is a consistent view: a block being allocated or freed at
 * the stop is either in or out. */
void md_track_for_each_stopped(enum md_track_state state,
                               void (*fn)(void *user, void *arg), void *arg) {
  struct walk w = {state == MD_TRACK_LIVE ? STATE_LIVE : STATE_FREED, fn, arg};
  if (md_track_on)
    walk_all(&w, false);
}

/* ---- fork ----------------------------------------------------------------- */

/* The locks are taken (tables_lock, then slabs_lock, then the shards), so
 * the child gets consistent lists; in the child, the tables of threads that
 * did not survive the fork become free for reuse, and no walk runs. A
 * thread caught in the middle of taking or giving back a slot costs the
 * child that slot, nothing else. */
void md_track_atfork_prepare(void) {
  if (!md_track_on)
    return;
  md_lock(&tables_lock);
  md_lock(&slabs_lock);
  for (unsigned k = 0; k < SHARD_COUNT; k++)
    md_lock(&shards[k].lock);
}

void md_track_atfork_parent(void) {
  if (!md_track_on)
    return;
  for (unsigned k = 0; k < SHARD_COUNT; k++)
    md_unlock(&shards[k].lock);
  md_unlock(&slabs_lock);
  md_unlock(&tables_lock);
}

void md_track_atfork_child(void) {
  if (!md_track_on)
    return;
  for (unsigned k = 0; k < SHARD_COUNT; k++)
    md_lock_reset(&shards[k].lock);
  md_lock_reset(&slabs_lock);
  md_lock_reset(&tables_lock);
  walkers = 0;
  /* Linux keeps the membarrier registration across fork (exec drops it, and
   * the runtime starts over then); should a kernel not, the child, one
   * thread for now, switches to fences before anything can race. */
  if (md_track_membarrier &&
      syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) != 0)
    md_track_membarrier = false;
  free_tables = NULL;
  for (struct table *t = all_tables; t; t = t->next_all)
    if (t != my_table) {
      t->next_free = free_tables;
      free_tables = t;
    }
}
