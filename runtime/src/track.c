/* track.c - the tables of every block the runtime handed out and has not
 * released: live blocks and blocks held by the free_track quarantine.
 *
 * Each thread inserts the blocks it allocates into its own table and writes
 * the table's number into the block header, so the common case (a thread
 * freeing its own blocks) touches only its own lock and slots: no global
 * lock, no cache line shared between threads. A free reads that number from
 * the header and looks the pointer up in that table, which is what proves
 * the pointer is a live block (a header is only a hint: a foreign pointer's
 * "header" is whatever bytes precede it, and the lookup fails).
 * Reading 48 bytes before a pointer is safe when they are in the pointer's
 * own page; a block whose header would cross into the previous page (page
 * aligned blocks, for one) goes into a global table sharded by pointer
 * hash instead, and is found without touching memory before the pointer.
 *
 * Tables use linear probing with backward-shift deletion (no tombstones, so
 * probes stay short under constant churn); a deletion copies each moved
 * entry before clearing its old slot, so a lock-free reader never misses
 * an entry (it may see one twice).
 * A table outlives its thread (its blocks live on) and is handed to the
 * next new thread. All tables live in mmap'ed memory and hold pointers
 * bit-inverted with their state, so a conservative scan of memory never
 * mistakes them for references. Never allocates through malloc.
 */
#include <pthread.h>
#include <string.h>

#include "chunk.h"
#include "lock.h"

#define SHARD_BITS 6
#define SHARD_COUNT (1u << SHARD_BITS)
#define INITIAL_CAPACITY 1024 /* slots per table, a power of two */
#define MAX_TABLES 4095       /* thread tables; number 4095 means "global" */
#define GLOBAL_TABLE 4095u

#define SLOT_EMPTY ((uintptr_t)0)
#define STATE_LIVE ((uintptr_t)0)
#define STATE_FREED ((uintptr_t)1)

/* An open-addressing hash set of block pointers under one spin lock. */
struct set {
  md_lock_t lock;
  uintptr_t *slots;
  size_t mask;  /* capacity - 1 */
  size_t used;  /* live + freed */
  struct set *next_free; /* thread tables of exited threads */
} __attribute__((aligned(64)));

static struct set global_shards[SHARD_COUNT];
static struct set *tables[MAX_TABLES];
static unsigned table_count;
static struct set *free_tables;
static md_lock_t tables_lock = MD_LOCK_INIT;
static pthread_key_t table_key;
static __thread struct set *my_table __attribute__((tls_model("initial-exec")));
static __thread unsigned my_table_id __attribute__((tls_model("initial-exec")));
static bool enabled;

/* Entries are ~(pointer | state): blocks are 16-aligned, so the low nibble of
 * an entry is 0xf or 0xe, never EMPTY (0). */
static inline uintptr_t encode(const void *p, uintptr_t state) {
  return ~((uintptr_t)p | state);
}
static inline uintptr_t decode_ptr(uintptr_t e) { return ~e & ~(uintptr_t)15; }
static inline uintptr_t decode_state(uintptr_t e) { return ~e & 15; }

static inline uint64_t hash(const void *p) {
  uint64_t h = ((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
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

static void free_slots(uintptr_t *slots) {
  md_munmap(slots - 1, (slots[-1] + 2) * sizeof(uintptr_t));
}

static void set_init(struct set *s) {
  s->slots = new_slots(INITIAL_CAPACITY);
  s->mask = INITIAL_CAPACITY - 1;
}

/* ---- one set; all called with s->lock held ------------------------------- */

static inline long set_find(struct set *s, uint64_t h, const void *p) {
  for (size_t i = h & s->mask;; i = (i + 1) & s->mask) {
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
  slots[i] = e;
}

/* Keeps the load at most 1/2 (short probes): doubles when it would pass. */
static void make_room(struct set *s) {
  size_t capacity = s->mask + 1;
  if ((s->used + 1) * 2 <= capacity)
    return;
  size_t new_capacity = capacity * 2;
  uintptr_t *slots = new_slots(new_capacity), *old = s->slots;
  for (size_t i = 0; i < capacity; i++)
    if (old[i] != SLOT_EMPTY)
      put(slots, new_capacity - 1, old[i]);
  /* The new array is complete before it is published. */
  __atomic_store_n(&s->slots, slots, __ATOMIC_RELEASE);
  s->mask = new_capacity - 1;
  free_slots(old);
}

static void set_insert(struct set *s, uint64_t h, const void *p) {
  make_room(s);
  size_t i = h & s->mask;
  while (s->slots[i] != SLOT_EMPTY)
    i = (i + 1) & s->mask;
  __atomic_store_n(&s->slots[i], encode(p, STATE_LIVE), __ATOMIC_RELEASE);
  s->used++;
}

/* Backward-shift deletion: each later entry of the probe run that may move
 * into the hole does (copied first, its old slot reused after), then the
 * last hole is emptied. Release stores keep that order for a reader that
 * sees this thread stopped at any point. */
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

/* ---- which set holds a block --------------------------------------------- */

/* Thread exit: the table, with its blocks, waits for the next new thread. */
static void release_table(void *t) {
  struct set *s = t;
  md_lock(&tables_lock);
  s->next_free = free_tables;
  free_tables = s;
  md_unlock(&tables_lock);
  my_table = NULL;
}

static MD_NOINLINE struct set *acquire_table(void) {
  md_lock(&tables_lock);
  struct set *s = free_tables;
  unsigned id;
  if (s) {
    free_tables = s->next_free;
    for (id = 0; tables[id] != s; id++)
      ;
  } else if (table_count < MAX_TABLES) {
    s = md_mmap(sizeof(struct set));
    if (!s)
      md_die("out of memory for a block table (mmap failed)");
    set_init(s);
    id = table_count;
    __atomic_store_n(&tables[id], s, __ATOMIC_RELEASE);
    __atomic_store_n(&table_count, table_count + 1, __ATOMIC_RELEASE);
  } else { /* thousands of live threads: share the tables round robin */
    static unsigned next;
    id = next++ % MAX_TABLES;
    s = tables[id];
    md_unlock(&tables_lock);
    my_table = s; /* not ours alone: never handed on at thread exit */
    my_table_id = id;
    return s;
  }
  md_unlock(&tables_lock);
  my_table = s;
  my_table_id = id;
  pthread_setspecific(table_key, s);
  return s;
}

/* The set that holds (or would hold) p, and p's hash. */
static inline struct set *set_of(const void *p, uint64_t h) {
  if (header_straddles(p))
    return &global_shards[h >> (64 - SHARD_BITS)];
  unsigned id = md_chunk_of(p)->table;
  if (id == GLOBAL_TABLE)
    return &global_shards[h >> (64 - SHARD_BITS)];
  if (id >= __atomic_load_n(&table_count, __ATOMIC_ACQUIRE))
    return NULL; /* not a header of ours: not a block of ours */
  return __atomic_load_n(&tables[id], __ATOMIC_ACQUIRE);
}

/* ---- the interface ------------------------------------------------------- */

void md_track_init(void) {
  enabled = md_opt.verify_pointers || md_opt.leak_track || md_opt.leak_check ||
            md_opt.free_track ||
            md_backtrace_enabled();
  if (!enabled)
    return;
  for (unsigned i = 0; i < SHARD_COUNT; i++)
    set_init(&global_shards[i]);
  pthread_key_create(&table_key, release_table);
}

bool md_track_enabled(void) { return enabled; }

void md_track_insert_live(void *user) {
  uint64_t h = hash(user);
  struct set *s;
  if (header_straddles(user)) {
    md_chunk_of(user)->table = GLOBAL_TABLE;
    s = &global_shards[h >> (64 - SHARD_BITS)];
  } else {
    s = my_table ? my_table : acquire_table();
    md_chunk_of(user)->table = my_table_id;
  }
  md_lock(&s->lock);
  set_insert(s, h, user);
  md_unlock(&s->lock);
}

/* Finds user in the set that holds it and returns that set locked, with
 * the slot index in *slot (-1 if absent); NULL (nothing locked) when no set
 * can hold it. */
static struct set *lock_and_find(void *user, long *slot) {
  uint64_t h = hash(user);
  struct set *s = set_of(user, h);
  if (!s)
    return NULL;
  md_lock(&s->lock);
  *slot = set_find(s, h, user);
  return s;
}

static enum md_track_state state_at(const struct set *s, long i) {
  if (i < 0)
    return MD_TRACK_ABSENT;
  return decode_state(s->slots[i]) == STATE_LIVE ? MD_TRACK_LIVE : MD_TRACK_FREED;
}

enum md_track_state md_track_release(void *user, bool keep, void *evict,
                                     bool *evicted) {
  long i, k;
  *evicted = false;
  struct set *s = lock_and_find(user, &i);
  if (!s)
    return MD_TRACK_ABSENT;
  enum md_track_state was = state_at(s, i);
  if (was == MD_TRACK_LIVE) {
    if (keep)
      s->slots[i] = encode(user, STATE_FREED);
    else
      set_delete(s, i);
    uint64_t h;
    if (evict && set_of(evict, h = hash(evict)) == s &&
        (k = set_find(s, h, evict)) >= 0) {
      set_delete(s, k);
      *evicted = true;
    }
  }
  md_unlock(&s->lock);
  return was;
}

enum md_track_state md_track_lookup(void *user) {
  long i;
  struct set *s = lock_and_find(user, &i);
  if (!s)
    return MD_TRACK_ABSENT;
  enum md_track_state st = state_at(s, i);
  md_unlock(&s->lock);
  return st;
}

void md_track_remove(void *user) {
  long i;
  struct set *s = lock_and_find(user, &i);
  if (!s)
    return;
  if (i >= 0)
    set_delete(s, i);
  md_unlock(&s->lock);
}

/* Every set, global shards first; fn gets each one, unlocked. */
static void each_set(void (*fn)(struct set *s, void *arg), void *arg) {
  for (unsigned k = 0; k < SHARD_COUNT; k++)
    fn(&global_shards[k], arg);
  unsigned n = __atomic_load_n(&table_count, __ATOMIC_ACQUIRE);
  for (unsigned id = 0; id < n; id++)
    fn(__atomic_load_n(&tables[id], __ATOMIC_ACQUIRE), arg);
}

static void unlock_set(struct set *s, void *arg) { md_unlock(&s->lock); }

struct walk {
  uintptr_t want;
  void (*fn)(void *user, void *arg);
  void *arg;
};

/* Calls w->fn for every entry of s in the wanted state. The array is read
 * once, with its own mask, so this is also safe without the lock while the
 * set's owner is stopped (see md_track_for_each_stopped). */
static void walk_slots(struct set *s, const struct walk *w) {
  uintptr_t *slots = __atomic_load_n(&s->slots, __ATOMIC_ACQUIRE);
  for (size_t i = 0, mask = slots[-1]; i <= mask; i++) {
    uintptr_t e = __atomic_load_n(&slots[i], __ATOMIC_RELAXED);
    if (e != SLOT_EMPTY && decode_state(e) == w->want)
      w->fn((void *)decode_ptr(e), w->arg);
  }
}

static void walk_set(struct set *s, void *arg) {
  md_lock(&s->lock);
  walk_slots(s, arg);
  md_unlock(&s->lock);
}

void md_track_for_each(enum md_track_state state,
                       void (*fn)(void *user, void *arg), void *arg) {
  struct walk w = {state == MD_TRACK_LIVE ? STATE_LIVE : STATE_FREED, fn, arg};
  if (enabled)
    each_set(walk_set, &w);
}

static void count_one(void *user, void *arg) { (*(size_t *)arg)++; }

size_t md_track_count(enum md_track_state state) {
  size_t n = 0;
  md_track_for_each(state, count_one, &n);
  return n;
}

/* For the leak scanner, with every other thread stopped: no lock is taken
 * (a stopped thread may hold one). Each slot is one aligned word, and an
 * array is published only when complete, so what is read is a consistent
 * view: a block being allocated or freed at the stop is either in or out. */
static void walk_set_stopped(struct set *s, void *arg) { walk_slots(s, arg); }

void md_track_for_each_stopped(enum md_track_state state,
                               void (*fn)(void *user, void *arg), void *arg) {
  struct walk w = {state == MD_TRACK_LIVE ? STATE_LIVE : STATE_FREED, fn, arg};
  if (enabled)
    each_set(walk_set_stopped, &w);
}

/* fork: every table lock is taken (tables_lock first), so the child gets
 * consistent tables; in the child, the tables of threads that did not
 * survive the fork become free for reuse. */
static void lock_set(struct set *s, void *arg) { md_lock(&s->lock); }
static void reset_set(struct set *s, void *arg) { md_lock_reset(&s->lock); }

void md_track_atfork_prepare(void) {
  if (!enabled)
    return;
  md_lock(&tables_lock);
  each_set(lock_set, NULL);
}
void md_track_atfork_parent(void) {
  if (!enabled)
    return;
  each_set(unlock_set, NULL);
  md_unlock(&tables_lock);
}
void md_track_atfork_child(void) {
  if (!enabled)
    return;
  each_set(reset_set, NULL);
  md_lock_reset(&tables_lock);
  free_tables = NULL;
  for (unsigned id = 0; id < table_count; id++)
    if (tables[id] != my_table) {
      tables[id]->next_free = free_tables;
      free_tables = tables[id];
    }
}
