/* depot.c - the stack depot: every distinct stack stored once, named by a
 * 32-bit id (0 = no stack). Blocks keep only the id.
 *
 * Lock-free: lookups walk immutable chains; an insert appends a finished
 * entry with one compare-and-swap on its bucket. Two threads inserting the
 * same new stack at once may both store it (one copy then goes unused); no
 * caller ever waits. Entries are never freed. Memory is reserved once
 * (MAP_NORESERVE) and used as it fills; when it is full, new stacks get id
 * 0 and are counted as dropped. Under an address-space limit (ulimit -v)
 * the reservation takes at most an eighth of the limit, down to
 * MIN_ARENA_BYTES, and then stacks are not recorded at all: said in a
 * line, never fatal. Never allocates through
 * malloc.
 */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>

#include "base.h"
#include "log.h"
#include "scan_contract.h"
#include "stacks.h"

/* Cold code (the stack depot: the backtrace and sampling options only): base.h.
 */
#pragma clang section text = "mdebug_cold"

#define BUCKET_BITS 16
#define ARENA_BYTES ((size_t)1 << 30) /* 1 GiB of address space */
#define MIN_ARENA_BYTES ((size_t)1 << 22)

struct entry {
  uint32_t next; /* id of the next entry in the bucket's chain */
  uint32_t hash;
  uint32_t size; /* frames */
  uint32_t pad;
  uintptr_t pcs[];
};

static uint32_t *buckets;
static unsigned char *arena;
static size_t arena_bytes; /* reserved: ARENA_BYTES, or less under a limit */
/* Ids 0 (none) and 1 (MD_STACK_EMPTY) name no entry. */
static size_t arena_used = 16;
static size_t stacks, dropped;

/* Called once at init, before any thread can capture. */
void md_depot_init(void) {
  buckets = md_mmap(sizeof(uint32_t) << BUCKET_BITS);
  size_t bytes = ARENA_BYTES;
  int err = 0;
  while (buckets && !(arena = md_mmap(bytes))) {
    err = errno;
    if (bytes / 2 < MIN_ARENA_BYTES)
      break;
    bytes /= 2;
    /* Under a limit, at most an eighth of it: the rest is the program's. */
    struct rlimit rl;
    if (bytes == ARENA_BYTES / 2 && getrlimit(RLIMIT_AS, &rl) == 0 &&
        rl.rlim_cur != RLIM_INFINITY)
      while (bytes > rl.rlim_cur / 8 && bytes / 2 >= MIN_ARENA_BYTES)
        bytes /= 2;
  }
  if (!buckets || !arena) {
    md_log("mdebug: cannot reserve memory for the stack depot (%s); "
           "allocation stacks are not recorded",
           strerror(err ? err : errno));
    md_munmap(buckets, sizeof(uint32_t) << BUCKET_BITS);
    buckets = NULL;
    arena = NULL;
    return;
  }
  arena_bytes = bytes;
  if (bytes < ARENA_BYTES)
    md_log("mdebug: cannot reserve %zu MiB for the stack depot (%s); it "
           "holds %zu MiB of stacks, those after are not recorded",
           ARENA_BYTES >> 20, strerror(err), bytes >> 20);
}

static inline struct entry *entry_of(uint32_t id) {
  return (struct entry *)(arena + ((size_t)id << 3));
}

/* Two instructions a frame (md_stack_hash_step: xor, multiply: each pc's
 * bits reach every higher bit of h), done by the walk itself
 * (md_unwind_hashed); then the count and one mix that folds the high bits
 * down, since buckets are named by the top bits of the 32-bit result. */
static uint32_t hash_finish(uint64_t h, size_t n) {
  h ^= n;
  h ^= h >> 29;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 32;
  return (uint32_t)h;
}

static uint32_t find(uint32_t from, uint32_t until, uint32_t hash,
                     const uintptr_t *pcs, size_t n) {
  for (uint32_t id = from; id && id != until; id = entry_of(id)->next) {
    const struct entry *e = entry_of(id);
    if (e->hash == hash && e->size == n &&
        memcmp(e->pcs, pcs, n * sizeof(pcs[0])) == 0)
      return id;
  }
  return 0;
}

uint32_t md_depot_put(const uintptr_t *pcs, size_t n) {
  uint64_t h = MD_STACK_HASH_INIT;
  for (size_t i = 0; i < n; i++)
    h = md_stack_hash_step(h, pcs[i] + 1); /* the return address */
  return md_depot_put_hashed(pcs, n, h);
}

uint32_t md_depot_put_hashed(const uintptr_t *pcs, size_t n, uint64_t h) {
  if (!arena)
    return 0;
  if (n == 0)
    return MD_STACK_EMPTY;
  uint32_t hash = hash_finish(h, n);
  uint32_t *bucket = &buckets[hash >> (32 - BUCKET_BITS)];
  uint32_t head = __atomic_load_n(bucket, __ATOMIC_ACQUIRE);
  uint32_t id = find(head, 0, hash, pcs, n);
  if (id)
    return id;
  size_t bytes = sizeof(struct entry) + n * sizeof(pcs[0]);
  size_t off = __atomic_fetch_add(&arena_used, bytes, __ATOMIC_RELAXED);
  if (off + bytes > arena_bytes) {
    __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
    return 0;
  }
  id = (uint32_t)(off >> 3);
  struct entry *e = entry_of(id);
  e->hash = hash;
  e->size = (uint32_t)n;
  memcpy(e->pcs, pcs, n * sizeof(pcs[0]));
  for (;;) {
    e->next = head;
    uint32_t seen = head;
    if (__atomic_compare_exchange_n(bucket, &head, id, false, __ATOMIC_RELEASE,
                                    __ATOMIC_ACQUIRE))
      break;
    /* Someone else got in first: maybe with this very stack. */
    uint32_t other = find(head, seen, hash, pcs, n);
    if (other)
      return other; /* our copy stays unused */
  }
  __atomic_fetch_add(&stacks, 1, __ATOMIC_RELAXED);
  return id;
}

/* Checks the id too: it may come from a header the program overwrote. */
const uintptr_t *md_depot_get(uint32_t id, size_t *n) {
  size_t used = __atomic_load_n(&arena_used, __ATOMIC_ACQUIRE);
  size_t off = (size_t)id << 3;
  *n = 0;
  if (!id || !arena || off + sizeof(struct entry) > used)
    return NULL;
  const struct entry *e = entry_of(id);
  if (e->size == 0 || e->size > 256 ||
      off + sizeof(struct entry) + e->size * sizeof(uintptr_t) > used)
    return NULL;
  *n = e->size;
  return e->pcs;
}

void md_depot_stats(struct md_depot_stats *st) {
  size_t used = __atomic_load_n(&arena_used, __ATOMIC_RELAXED);
  st->stacks = __atomic_load_n(&stacks, __ATOMIC_RELAXED);
  st->dropped = __atomic_load_n(&dropped, __ATOMIC_RELAXED);
  st->bytes = (used < arena_bytes ? used : arena_bytes) +
              (buckets ? sizeof(uint32_t) << BUCKET_BITS : 0);
}
