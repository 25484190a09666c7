/* track.c - the table of every block the runtime handed out and not yet
 * released: live blocks and blocks held by the free_track quarantine.
 *
 * 64 shards, chosen by a hash of the pointer, each an open-addressing hash
 * set under its own spin lock, so there is no global lock on the allocation
 * and free paths. Slots live in mmap'ed memory (never the user heap) and hold
 * the pointer bit-inverted with its state, so a conservative scan of memory
 * never mistakes the table for a reference to a block.
 * Never allocates through malloc; safe to call from any entry point.
 */
#include <string.h>

#include "chunk.h"
#include "lock.h"

#define SHARD_BITS 6
#define SHARD_COUNT (1u << SHARD_BITS)
#define INITIAL_CAPACITY 1024 /* slots per shard, a power of two */

#define SLOT_EMPTY ((uintptr_t)0)
#define SLOT_TOMB ((uintptr_t)1)
#define STATE_LIVE ((uintptr_t)0)
#define STATE_FREED ((uintptr_t)1)

struct shard {
  md_lock_t lock;
  uintptr_t *slots;
  size_t mask;  /* capacity - 1 */
  size_t used;  /* live + freed */
  size_t tombs; /* deleted slots still in probe chains */
} __attribute__((aligned(64)));

static struct shard shards[SHARD_COUNT];
static bool enabled;

/* Entries are ~(pointer | state): blocks are 16-aligned, so the low nibble of
 * an entry is 0xf or 0xe, never EMPTY (0) or TOMB (1). */
static inline uintptr_t encode(const void *p, uintptr_t state) {
  return ~((uintptr_t)p | state);
}
static inline uintptr_t decode_ptr(uintptr_t e) { return ~e & ~(uintptr_t)15; }
static inline uintptr_t decode_state(uintptr_t e) { return ~e & 15; }

static inline uint64_t hash(const void *p) {
  uint64_t h = ((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}
static inline struct shard *shard_of(uint64_t h) {
  return &shards[h >> (64 - SHARD_BITS)];
}

static uintptr_t *new_slots(size_t capacity) {
  uintptr_t *s = md_mmap(capacity * sizeof(uintptr_t));
  if (!s)
    md_die("out of memory for the block table (mmap failed)");
  return s;
}

void md_track_init(void) {
  enabled = md_opt.verify_pointers || md_opt.leak_track || md_opt.free_track;
  if (!enabled)
    return;
  for (unsigned i = 0; i < SHARD_COUNT; i++) {
    shards[i].slots = new_slots(INITIAL_CAPACITY);
    shards[i].mask = INITIAL_CAPACITY - 1;
  }
}

bool md_track_enabled(void) { return enabled; }

/* Index of p's slot in s, or -1. Called with s->lock held. */
static inline long find(struct shard *s, uint64_t h, const void *p) {
  for (size_t i = h & s->mask;; i = (i + 1) & s->mask) {
    uintptr_t e = s->slots[i];
    if (e == SLOT_EMPTY)
      return -1;
    if (e != SLOT_TOMB && decode_ptr(e) == (uintptr_t)p)
      return (long)i;
  }
}

static void put(uintptr_t *slots, size_t mask, uintptr_t e) {
  size_t i = hash((void *)decode_ptr(e)) & mask;
  while (slots[i] != SLOT_EMPTY && slots[i] != SLOT_TOMB)
    i = (i + 1) & mask;
  slots[i] = e;
}

/* Keeps the load (entries + tombstones) under 3/4: doubles when entries
 * alone pass 3/8, otherwise rehashes in place size to drop tombstones. */
static void make_room(struct shard *s) {
  size_t capacity = s->mask + 1;
  if ((s->used + s->tombs + 1) * 4 <= capacity * 3)
    return;
  size_t new_capacity = (s->used + 1) * 8 > capacity * 3 ? capacity * 2 : capacity;
  uintptr_t *slots = new_slots(new_capacity), *old = s->slots;
  for (size_t i = 0; i < capacity; i++)
    if (old[i] != SLOT_EMPTY && old[i] != SLOT_TOMB)
      put(slots, new_capacity - 1, old[i]);
  s->slots = slots;
  s->mask = new_capacity - 1;
  s->tombs = 0;
  md_munmap(old, capacity * sizeof(uintptr_t));
}

void md_track_insert_live(void *user) {
  uint64_t h = hash(user);
  struct shard *s = shard_of(h);
  md_lock(&s->lock);
  make_room(s);
  size_t i = h & s->mask;
  while (s->slots[i] != SLOT_EMPTY && s->slots[i] != SLOT_TOMB)
    i = (i + 1) & s->mask;
  if (s->slots[i] == SLOT_TOMB)
    s->tombs--;
  s->slots[i] = encode(user, STATE_LIVE);
  s->used++;
  md_unlock(&s->lock);
}

enum md_track_state md_track_release(void *user, bool keep) {
  uint64_t h = hash(user);
  struct shard *s = shard_of(h);
  enum md_track_state was = MD_TRACK_ABSENT;
  md_lock(&s->lock);
  long i = find(s, h, user);
  if (i >= 0) {
    uintptr_t e = s->slots[i];
    was = decode_state(e) == STATE_LIVE ? MD_TRACK_LIVE : MD_TRACK_FREED;
    if (was == MD_TRACK_LIVE) {
      if (keep) {
        s->slots[i] = encode(user, STATE_FREED);
      } else {
        s->slots[i] = SLOT_TOMB;
        s->used--;
        s->tombs++;
      }
    }
  }
  md_unlock(&s->lock);
  return was;
}

enum md_track_state md_track_lookup(void *user) {
  uint64_t h = hash(user);
  struct shard *s = shard_of(h);
  enum md_track_state st = MD_TRACK_ABSENT;
  md_lock(&s->lock);
  long i = find(s, h, user);
  if (i >= 0)
    st = decode_state(s->slots[i]) == STATE_LIVE ? MD_TRACK_LIVE : MD_TRACK_FREED;
  md_unlock(&s->lock);
  return st;
}

void md_track_remove(void *user) {
  uint64_t h = hash(user);
  struct shard *s = shard_of(h);
  md_lock(&s->lock);
  long i = find(s, h, user);
  if (i >= 0) {
    s->slots[i] = SLOT_TOMB;
    s->used--;
    s->tombs++;
  }
  md_unlock(&s->lock);
}

void md_track_for_each(enum md_track_state state,
                       void (*fn)(void *user, void *arg), void *arg) {
  uintptr_t want = state == MD_TRACK_LIVE ? STATE_LIVE : STATE_FREED;
  if (!enabled)
    return;
  for (unsigned k = 0; k < SHARD_COUNT; k++) {
    struct shard *s = &shards[k];
    md_lock(&s->lock);
    for (size_t i = 0; i <= s->mask; i++) {
      uintptr_t e = s->slots[i];
      if (e != SLOT_EMPTY && e != SLOT_TOMB && decode_state(e) == want)
        fn((void *)decode_ptr(e), arg);
    }
    md_unlock(&s->lock);
  }
}

static void count_one(void *user, void *arg) { (*(size_t *)arg)++; }

size_t md_track_count(enum md_track_state state) {
  size_t n = 0;
  md_track_for_each(state, count_one, &n);
  return n;
}

void md_track_atfork_prepare(void) {
  for (unsigned k = 0; k < SHARD_COUNT; k++)
    md_lock(&shards[k].lock);
}
void md_track_atfork_parent(void) {
  for (unsigned k = 0; k < SHARD_COUNT; k++)
    md_unlock(&shards[k].lock);
}
void md_track_atfork_child(void) {
  for (unsigned k = 0; k < SHARD_COUNT; k++)
    md_lock_reset(&shards[k].lock);
}
