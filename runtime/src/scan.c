/* scan.c - reachability over mdebug's heap, for the leak check (leak.c).
 *
 * With every other thread stopped (world_linux.c), md_scan_begin snapshots
 * the heap's extent, md_scan_region marks each live block that a word of a
 * root points into (the start, or inside its bytes unless start_only), and
 * the blocks those point into, transitively; md_scan_finish classifies what
 * is left as direct or indirect leaks, copies everything a report needs out
 * of the metadata, and marks the leaked blocks reported - all before the
 * threads resume, so nothing read later can have changed under the report.
 *
 * Finding a word's block is arithmetic (heap.h): no sorting, no search but
 * a binary search among large blocks. Marks are a byte a slot, in mmap'ed
 * arrays sized from the snapshot; the scan's state is mmap'ed too, so no
 * root (our own data, this stack) holds a pointer into a block. Takes no
 * lock and calls no libc function but mmap/munmap; uses no thread-local
 * data (it may run in a helper task). The large blocks' table is locked by
 * the caller (md_heap_scan_lock) before the world stops.
 */
#include <string.h>

#include "heap.h"

enum { UNREACHED, REACHABLE, INDIRECT };

struct large {
  uintptr_t begin, end; /* the usable bytes */
  struct md_block b;
};

struct md_scan {
  bool start_only;
  uint32_t fresh[MD_CLASS_COUNT + 1];
  uint8_t *marks[MD_CLASS_COUNT + 1]; /* a byte a slot */
  size_t marks_bytes[MD_CLASS_COUNT + 1];
  struct large *large;
  uint8_t *large_marks;
  size_t large_count, large_bytes;
  uintptr_t large_lo, large_hi;
  uint64_t *work; /* (class << 32) | slot; class 0: large[slot] */
  size_t work_count, work_capacity, work_bytes;
  size_t live;
};

static bool before_large(const void *a, const void *b) {
  return ((const struct large *)a)->begin < ((const struct large *)b)->begin;
}

static void add_large(const struct md_block *b, void *arg) {
  struct md_scan *s = arg;
  struct large *l = &s->large[s->large_count++];
  l->b = *b;
  l->begin = (uintptr_t)b->user;
  l->end = (uintptr_t)b->user + md_block_usable(b);
}

struct md_scan *md_scan_begin(bool start_only) {
  struct md_scan *s = md_mmap(sizeof(*s));
  if (!s)
    return NULL;
  s->start_only = start_only;
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++) {
    uint32_t n = md_fresh(k);
    s->fresh[k] = n;
    if (!n)
      continue;
    s->marks_bytes[k] = n;
    if (!(s->marks[k] = md_mmap(n)))
      goto fail;
    for (uint32_t i = 0; i < n; i++)
      s->live += MD_BITS_STATE(md_meta_at(k, i)->bits) == MD_STATE_LIVE;
  }
  size_t large_blocks, large_mapped;
  md_heap_scan_large_count(&large_blocks, &large_mapped);
  if (large_blocks) {
    s->large_bytes = large_blocks * sizeof(struct large);
    if (!(s->large = md_mmap(s->large_bytes)) ||
        !(s->large_marks = md_mmap(large_blocks)))
      goto fail;
    md_heap_scan_large(1u << MD_STATE_LIVE, add_large, s);
    md_sort(s->large, s->large_count, sizeof(struct large), before_large);
    s->live += s->large_count;
    if (s->large_count) {
      s->large_lo = s->large[0].begin;
      s->large_hi = s->large[s->large_count - 1].end + 1;
    }
  }
  s->work_capacity = s->live + 1;
  s->work_bytes = s->work_capacity * sizeof(uint64_t);
  if (!(s->work = md_mmap(s->work_bytes)))
    goto fail;
  return s;
fail:
  md_scan_end(s);
  return NULL;
}

void md_scan_end(struct md_scan *s) {
  if (!s)
    return;
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    md_munmap(s->marks[k], s->marks_bytes[k]);
  md_munmap(s->large, s->large_bytes);
  md_munmap(s->large_marks, s->large_bytes / sizeof(struct large));
  md_munmap(s->work, s->work_bytes);
  md_munmap(s, sizeof(*s));
}

size_t md_scan_live(const struct md_scan *s) { return s->live; }

/* `new T[0]` for a T with a destructor: operator new[] of an 8-byte array
 * cookie (the count, 0), and the pointer the program keeps is the block's
 * end (as LeakSanitizer special-cases). */
static inline bool array_cookie_end(const unsigned char *user, size_t usable,
                                    size_t off, uint32_t bits) {
  return usable == sizeof(size_t) && off == usable &&
         md_op_family(MD_BITS_ALLOC_OP(bits)) == MD_FAMILY_NEW_ARRAY &&
         *(const size_t *)(const void *)user == 0;
}

/* The mark byte of the live block w points into, or NULL. */
static inline uint8_t *mark_of(struct md_scan *s, uintptr_t w, uint64_t *ref) {
  if (w - md_heap.base < md_heap.size) {
    unsigned k = md_region_of((const void *)w);
    uint32_t within;
    if (!k)
      return NULL;
    uint32_t i = md_slot_of(k, (const void *)w, &within);
    if (i >= s->fresh[k] || within < md_heap.guard)
      return NULL;
    const struct md_meta *m = md_meta_at(k, i);
    uint32_t bits = m->bits;
    if (MD_BITS_STATE(bits) != MD_STATE_LIVE)
      return NULL;
    size_t pos = within - md_heap.guard, lead = MD_BITS_LEAD(bits) * 16;
    if (pos < lead)
      return NULL;
    size_t off = pos - lead, usable = m->size + md_heap.expand;
    if (off != 0 && (s->start_only || off >= usable) &&
        !array_cookie_end((const unsigned char *)(w - off), usable, off, bits))
      return NULL;
    *ref = ((uint64_t)k << 32) | i;
    return &s->marks[k][i];
  }
  if (w < s->large_lo || w >= s->large_hi)
    return NULL;
  size_t a = 0, b = s->large_count; /* the last block beginning <= w */
  while (b - a > 1) {
    size_t mid = a + (b - a) / 2;
    if (s->large[mid].begin <= w)
      a = mid;
    else
      b = mid;
  }
  const struct large *l = &s->large[a];
  size_t off = w - l->begin;
  if (w < l->begin ||
      (off != 0 && (s->start_only || w >= l->end) &&
       !array_cookie_end((const unsigned char *)l->begin, l->end - l->begin,
                         off, l->b.meta->bits)))
    return NULL;
  *ref = a;
  return &s->large_marks[a];
}

/* The bytes of a referenced block. */
static void bounds(const struct md_scan *s, uint64_t ref, uintptr_t *b,
                   uintptr_t *e) {
  unsigned k = (unsigned)(ref >> 32);
  if (!k) {
    *b = s->large[ref].begin;
    *e = s->large[ref].end;
    return;
  }
  struct md_block blk;
  md_heap_block_at(k, (uint32_t)ref, &blk);
  *b = (uintptr_t)blk.user;
  *e = *b + md_block_usable(&blk);
}

/* Marks every unreached block a word of [b, e) points into as `state`,
 * queueing it (queue) to be scanned in turn; skips `self`. */
static void scan_words(struct md_scan *s, uintptr_t b, uintptr_t e,
                       uint8_t state, uint64_t self, bool queue) {
  for (uintptr_t p = (b + 7) & ~(uintptr_t)7; p + 8 <= e; p += 8) {
    uint64_t ref;
    uint8_t *mark = mark_of(s, *(const uintptr_t *)p, &ref);
    if (!mark || *mark != UNREACHED || ref == self)
      continue;
    *mark = state;
    if (queue && s->work_count < s->work_capacity)
      s->work[s->work_count++] = ref;
  }
}

static void drain(struct md_scan *s) {
  while (s->work_count) {
    uintptr_t b, e;
    bounds(s, s->work[--s->work_count], &b, &e);
    scan_words(s, b, e, REACHABLE, UINT64_MAX, true);
  }
}

void md_scan_region(struct md_scan *s, uintptr_t begin, uintptr_t end) {
  scan_words(s, begin, end, REACHABLE, UINT64_MAX, true);
  drain(s);
}

/* Calls fn(ref, block) for every live block of the snapshot. */
static void each_live(struct md_scan *s,
                      void (*fn)(struct md_scan *s, uint64_t ref, uint8_t *mark,
                                 const struct md_block *b, void *arg),
                      void *arg) {
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    for (uint32_t i = 0; i < s->fresh[k]; i++) {
      if (MD_BITS_STATE(md_meta_at(k, i)->bits) != MD_STATE_LIVE)
        continue;
      struct md_block b;
      md_heap_block_at(k, i, &b);
      fn(s, ((uint64_t)k << 32) | i, &s->marks[k][i], &b, arg);
    }
  for (size_t j = 0; j < s->large_count; j++)
    fn(s, j, &s->large_marks[j], &s->large[j].b, arg);
}

static void root_if_ignored(struct md_scan *s, uint64_t ref, uint8_t *mark,
                            const struct md_block *b, void *arg) {
  (void)arg;
  if ((MD_BITS_MARKS(b->meta->bits) & MD_MARK_IGNORED) && *mark == UNREACHED) {
    *mark = REACHABLE;
    s->work[s->work_count++] = ref;
  }
}

void md_scan_ignored_roots(struct md_scan *s) {
  each_live(s, root_if_ignored, NULL);
  drain(s);
}

/* What a leaked block points to is an indirect leak (each leaked block is
 * scanned once, here). */
static void find_indirect(struct md_scan *s, uint64_t ref, uint8_t *mark,
                          const struct md_block *b, void *arg) {
  (void)arg;
  if (*mark == REACHABLE)
    return;
  uintptr_t begin = (uintptr_t)b->user;
  scan_words(s, begin, begin + md_block_usable(b), INDIRECT, ref, false);
}

struct collect {
  struct md_scan_result *r;
  bool with_reachable;
  unsigned epoch;
};

static void collect(struct md_scan *s, uint64_t ref, uint8_t *mark,
                    const struct md_block *b, void *arg) {
  (void)s;
  (void)ref;
  struct collect *c = arg;
  struct md_scan_result *r = c->r;
  uint32_t bits = b->meta->bits;
  enum md_scan_kind kind = *mark == REACHABLE ? MD_SCAN_REACHABLE
                           : *mark == INDIRECT ? MD_SCAN_INDIRECT
                                               : MD_SCAN_DIRECT;
  if (kind == MD_SCAN_REACHABLE) {
    r->reachable_blocks++;
    r->reachable_bytes += b->size;
    if (!c->with_reachable)
      return;
  } else if ((MD_BITS_MARKS(bits) & (MD_MARK_IGNORED | MD_MARK_REPORTED)) ||
             MD_BITS_EPOCH(bits) != c->epoch) {
    return; /* kept on purpose, reported before, or the parent's */
  } else {
    __atomic_store_n(&b->meta->bits,
                     bits | ((uint32_t)MD_MARK_REPORTED << MD_BITS_MARK_SHIFT),
                     __ATOMIC_RELAXED);
  }
  if (r->count == r->capacity)
    return;
  r->blocks[r->count++] = (struct md_scan_block){
      (uintptr_t)b->user, b->size, md_origin_of(b->meta->alloc_origin),
      b->stacks ? b->stacks->alloc_stack : 0, (uint8_t)MD_BITS_ALLOC_OP(bits),
      (uint8_t)kind};
}

bool md_scan_finish(struct md_scan *s, bool with_reachable,
                    struct md_scan_result *r) {
  memset(r, 0, sizeof(*r));
  each_live(s, find_indirect, NULL);
  r->capacity = s->live + 1;
  r->bytes = r->capacity * sizeof(struct md_scan_block);
  if (!(r->blocks = md_mmap(r->bytes)))
    return false;
  struct collect c = {r, with_reachable, md_fork_epoch & MD_EPOCH_MASK};
  each_live(s, collect, &c);
  return true;
}

void md_scan_result_free(struct md_scan_result *r) {
  md_munmap(r->blocks, r->bytes);
  memset(r, 0, sizeof(*r));
}
