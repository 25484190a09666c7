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
 * The program's mappings (mmap.c) are nodes too, as large blocks are: a
 * mapping a word points into is reachable, and so is what its pages point
 * to. The pieces one mmap became (a partial munmap, MAP_FIXED over part of
 * it, mprotect) stay one allocation: a pointer into any piece keeps them
 * all, as the program may well reach the rest by arithmetic. Only
 * anonymous mappings are read. Mappings and large blocks are read only
 * where /proc/self/maps (read while the world is stopped) says they are
 * readable, and only their pages that may hold data (resident, or swapped
 * out when swap is configured: md_roots_each_present): a calloc of GiBs
 * touched here and there is not read whole, and no read can fault (a page
 * the program made PROT_NONE inside its block, the pages of a shared
 * mapping grown past its object, a MAP_HUGETLB page, a userfaultfd range).
 *
 * The scan asks the heap only what scan_contract.h says (lock, the nodes of
 * each kind, which block a word points into, what a report says of a node,
 * "reported"), so it runs as well over a test's synthetic heap
 * (test/unit/scan_test.c). Finding a word's block is the heap's arithmetic
 * (md_scan_slot_of), after an inline test of the pools' range: no sorting,
 * no search but a binary search among large blocks and mappings. Marks are a byte a slot, in mmap'ed
 * arrays sized from the snapshot; the scan's state is mmap'ed too, so no
 * root (our own data, this stack) holds a pointer into a block. Takes no
 * lock and calls no libc function but mmap/munmap; uses no thread-local
 * data (it may run in a helper task). The heap is locked by the caller
 * (md_scan_heap_lock) before the world stops.
 */
#define _GNU_SOURCE
#include <string.h>

#include "scan_contract.h"

/* A runtime function (platform.h, which this file does not include): the
 * runtime's mmap/munmap tell its own calls by this section, and must not
 * take mmap.c's locks for the scan's memory (they are held). */
#pragma clang section text = "mdebug_text"

enum { UNREACHED, REACHABLE, INDIRECT };

/* A work item or mark reference: (pool << 32) | slot; pool 0 a large
 * block, MAP_CLASS a mapping. */
#define MAP_CLASS ((uint64_t)MD_SCAN_POOLS_MAX + 1)
#define SIBLING 0xff /* a mark while its own group is being read */

struct md_scan {
  bool start_only;
  unsigned pools;
  uintptr_t pools_lo;
  size_t pools_size;
  uint32_t fresh[MD_SCAN_POOLS_MAX + 1];
  uint8_t *marks[MD_SCAN_POOLS_MAX + 1]; /* a byte a slot */
  size_t marks_bytes[MD_SCAN_POOLS_MAX + 1];
  struct md_scan_node *large;
  uint8_t *large_marks;
  size_t large_count, large_bytes;
  uintptr_t large_lo, large_hi;
  uint64_t *work; /* (class << 32) | slot; class 0: large[slot] */
  size_t work_count, work_capacity, work_bytes;
  size_t live;
  struct md_scan_node *maps; /* the program's mappings, by address */
  uint8_t *map_marks;
  uint32_t *next_piece; /* the next piece of the same mmap, in a ring */
  size_t map_count, map_bytes;
  uintptr_t maps_lo, maps_hi;
  bool loader_root; /* scanning the loader's data (md_scan_region) */
};

static bool before_map(const void *a, const void *b) {
  return ((const struct md_scan_node *)a)->begin <
         ((const struct md_scan_node *)b)->begin;
}

struct piece {
  uint32_t group, index;
};
static bool before_piece(const void *pa, const void *pb) {
  const struct piece *a = pa, *b = pb;
  return a->group != b->group ? a->group < b->group : a->index < b->index;
}

/* Links each mapping to the next piece of its mmap (itself if alone). */
static bool link_pieces(struct md_scan *s) {
  size_t n = s->map_count, bytes = n * sizeof(struct piece);
  struct piece *v = md_mmap(bytes);
  if (!v)
    return false;
  for (size_t i = 0; i < n; i++)
    v[i] = (struct piece){s->maps[i].group, (uint32_t)i};
  md_sort(v, n, sizeof(v[0]), before_piece);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && v[j].group == v[i].group)
      j++;
    for (size_t k = i; k < j; k++)
      s->next_piece[v[k].index] = v[k + 1 < j ? k + 1 : i].index;
    i = j;
  }
  md_munmap(v, bytes);
  return true;
}

static void add_large(const struct md_scan_node *n, void *arg) {
  struct md_scan *s = arg;
  if (s->large_count < s->large_bytes / sizeof(struct md_scan_node))
    s->large[s->large_count++] = *n;
}

struct md_scan *md_scan_begin(bool start_only) {
  struct md_scan *s = md_mmap(sizeof(*s));
  if (!s)
    return NULL;
  s->start_only = start_only;
  s->pools = md_scan_pools();
  if (s->pools > MD_SCAN_POOLS_MAX)
    s->pools = MD_SCAN_POOLS_MAX;
  md_scan_pools_range(&s->pools_lo, &s->pools_size);
  for (unsigned k = 1; k <= s->pools; k++) {
    uint32_t n = md_scan_pool_slots(k);
    s->fresh[k] = n;
    if (!n)
      continue;
    s->marks_bytes[k] = n;
    if (!(s->marks[k] = md_mmap(n)))
      goto fail;
    s->live += md_scan_pool_live(k);
  }
  size_t large_blocks = md_scan_large_count();
  if (large_blocks) {
    s->large_bytes = large_blocks * sizeof(struct md_scan_node);
    if (!(s->large = md_mmap(s->large_bytes)) ||
        !(s->large_marks = md_mmap(large_blocks)))
      goto fail;
    md_scan_large_each(add_large, s);
    md_sort(s->large, s->large_count, sizeof(s->large[0]), before_map);
    s->live += s->large_count;
    if (s->large_count) {
      s->large_lo = s->large[0].begin;
      s->large_hi = s->large[s->large_count - 1].end + 1;
    }
  }
  size_t maps = md_scan_maps_collect(NULL, 0);
  if (maps) {
    s->map_bytes = maps * sizeof(struct md_scan_node);
    if (!(s->maps = md_mmap(s->map_bytes)) || !(s->map_marks = md_mmap(maps)) ||
        !(s->next_piece = md_mmap(maps * sizeof(uint32_t))))
      goto fail;
    s->map_count = md_scan_maps_collect(s->maps, maps);
    if (s->map_count > maps)
      s->map_count = maps;
    md_sort(s->maps, s->map_count, sizeof(s->maps[0]), before_map);
    if (!link_pieces(s))
      goto fail;
    s->live += s->map_count;
    s->maps_lo = s->maps[0].begin;
    s->maps_hi = s->maps[s->map_count - 1].end;
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
  for (unsigned k = 1; k <= MD_SCAN_POOLS_MAX; k++)
    md_munmap(s->marks[k], s->marks_bytes[k]);
  md_munmap(s->large, s->large_bytes);
  md_munmap(s->large_marks, s->large_bytes / sizeof(struct md_scan_node));
  md_munmap(s->work, s->work_bytes);
  md_munmap(s->maps, s->map_bytes);
  md_munmap(s->map_marks, s->map_bytes / sizeof(struct md_scan_node));
  md_munmap(s->next_piece,
            s->map_bytes / sizeof(struct md_scan_node) * sizeof(uint32_t));
  md_munmap(s, sizeof(*s));
}

size_t md_scan_live(const struct md_scan *s) { return s->live; }

/* `new T[0]` for a T with a destructor: operator new[] of an 8-byte array
 * cookie (the count, 0), and the pointer the program keeps is the block's
 * end (as LeakSanitizer special-cases). For large blocks; the heap checks
 * its slots (md_scan_slot_of). */
static inline bool array_cookie_end(const struct md_scan_node *n, size_t off) {
  return n->end - n->begin == sizeof(size_t) && off == sizeof(size_t) &&
         (n->flags & MD_SCAN_ARRAY_NEW) &&
         *(const size_t *)(const void *)n->begin == 0;
}

/* The mark byte of the mapping w points into, or NULL. */
static uint8_t *map_mark_of(struct md_scan *s, uintptr_t w, uint64_t *ref) {
  if (w < s->maps_lo || w >= s->maps_hi)
    return NULL;
  size_t a = 0, b = s->map_count; /* the last mapping beginning <= w */
  while (b - a > 1) {
    size_t mid = a + (b - a) / 2;
    if (s->maps[mid].begin <= w)
      a = mid;
    else
      b = mid;
  }
  const struct md_scan_node *m = &s->maps[a];
  if (w < m->begin || w >= m->end || (s->start_only && w != m->begin))
    return NULL;
  *ref = (MAP_CLASS << 32) | a;
  return &s->map_marks[a];
}

/* The mark byte of the live block or mapping w points into, or NULL. */
static inline uint8_t *mark_of(struct md_scan *s, uintptr_t w, uint64_t *ref) {
  if (w - s->pools_lo < s->pools_size) {
    unsigned k;
    uint32_t i;
    if (!md_scan_slot_of(w, s->start_only, &k, &i) || k > s->pools ||
        i >= s->fresh[k])
      return NULL;
    *ref = ((uint64_t)k << 32) | i;
    return &s->marks[k][i];
  }
  if (w < s->large_lo || w >= s->large_hi)
    return map_mark_of(s, w, ref);
  size_t a = 0, b = s->large_count; /* the last block beginning <= w */
  while (b - a > 1) {
    size_t mid = a + (b - a) / 2;
    if (s->large[mid].begin <= w)
      a = mid;
    else
      b = mid;
  }
  const struct md_scan_node *l = &s->large[a];
  size_t off = w - l->begin;
  if (w < l->begin || (off != 0 && (s->start_only || w >= l->end) &&
                       !array_cookie_end(l, off)))
    return map_mark_of(s, w, ref);
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
  struct md_scan_node n;
  if (!md_scan_slot_node(k, (uint32_t)ref, &n)) { /* marked, so live */
    *b = *e = 0;
    return;
  }
  *b = n.begin;
  *e = n.end;
}

/* Marks every unreached block a word of [b, e) points into as `state`,
 * queueing it (queue) to be scanned in turn; skips `self`, and, in the
 * loader's data, a mapping the word names by its first byte
 * (md_scan_region). */
static void scan_words(struct md_scan *s, uintptr_t b, uintptr_t e,
                       uint8_t state, uint64_t self, bool queue) {
  for (uintptr_t p = (b + 7) & ~(uintptr_t)7; p + 8 <= e; p += 8) {
    uintptr_t w = *(const uintptr_t *)p;
    uint64_t ref;
    uint8_t *mark = mark_of(s, w, &ref);
    if (!mark || *mark != UNREACHED || ref == self)
      continue;
    if ((ref >> 32) == MAP_CLASS && s->loader_root &&
        w == s->maps[(uint32_t)ref].begin)
      continue;
    *mark = state;
    if (queue && s->work_count < s->work_capacity)
      s->work[s->work_count++] = ref;
  }
}

/* The bytes of a large block or a mapping: only their readable pages that
 * may hold data (md_roots_each_present): a sparse block is not read whole,
 * and no read faults on a page the program made inaccessible. */
struct sparse_scan {
  struct md_scan *s;
  uint8_t state;
  uint64_t self;
  bool queue;
};

static void scan_sparse_part(uintptr_t b, uintptr_t e, void *arg) {
  struct sparse_scan *ss = arg;
  scan_words(ss->s, b, e, ss->state, ss->self, ss->queue);
}

static void scan_sparse(struct md_scan *s, uintptr_t b, uintptr_t e,
                        uint8_t state, uint64_t self, bool queue) {
  struct sparse_scan ss = {s, state, self, queue};
  md_roots_each_present(b, e, scan_sparse_part, &ss);
}

static void scan_map(struct md_scan *s, size_t i, uint8_t state, bool queue) {
  const struct md_scan_node *m = &s->maps[i];
  if (m->flags & MD_SCAN_UNREAD)
    return;
  scan_sparse(s, m->begin, m->end, state, UINT64_MAX, queue);
}

/* A piece reached is every piece of its mmap reached. */
static void reach_pieces(struct md_scan *s, size_t i) {
  for (size_t j = s->next_piece[i]; j != i; j = s->next_piece[j])
    if (s->map_marks[j] == UNREACHED) {
      s->map_marks[j] = REACHABLE;
      s->work[s->work_count++] = (MAP_CLASS << 32) | j;
    }
}

static void drain(struct md_scan *s) {
  while (s->work_count) {
    uint64_t ref = s->work[--s->work_count];
    if ((ref >> 32) == MAP_CLASS) {
      reach_pieces(s, (uint32_t)ref);
      scan_map(s, (uint32_t)ref, REACHABLE, true);
      continue;
    }
    uintptr_t b, e;
    bounds(s, ref, &b, &e);
    if ((ref >> 32) == 0) /* a large block */
      scan_sparse(s, b, e, REACHABLE, UINT64_MAX, true);
    else
      scan_words(s, b, e, REACHABLE, UINT64_MAX, true);
  }
}

void md_scan_region(struct md_scan *s, uintptr_t begin, uintptr_t end,
                    bool loader) {
  s->loader_root = loader;
  scan_words(s, begin, end, REACHABLE, UINT64_MAX, true);
  s->loader_root = false;
  drain(s);
}

/* Calls fn(ref, block) for every live block of the snapshot whose mark is
 * not `skip` (a mark no node has: none skipped). */
static void each_live(struct md_scan *s, uint8_t skip,
                      void (*fn)(struct md_scan *s, uint64_t ref, uint8_t *mark,
                                 const struct md_scan_node *n, void *arg),
                      void *arg) {
  for (unsigned k = 1; k <= s->pools; k++)
    for (uint32_t i = 0; i < s->fresh[k]; i++) {
      struct md_scan_node n;
      if (s->marks[k][i] != skip && md_scan_slot_node(k, i, &n))
        fn(s, ((uint64_t)k << 32) | i, &s->marks[k][i], &n, arg);
    }
  for (size_t j = 0; j < s->large_count; j++)
    if (s->large_marks[j] != skip)
      fn(s, j, &s->large_marks[j], &s->large[j], arg);
}

static void root_if_ignored(struct md_scan *s, uint64_t ref, uint8_t *mark,
                            const struct md_scan_node *n, void *arg) {
  (void)arg;
  if ((n->flags & MD_SCAN_IGNORED) && *mark == UNREACHED) {
    *mark = REACHABLE;
    s->work[s->work_count++] = ref;
  }
}

void md_scan_ignored_roots(struct md_scan *s) {
  each_live(s, REACHABLE, root_if_ignored, NULL);
  for (size_t i = 0; i < s->map_count; i++)
    if ((s->maps[i].flags & MD_SCAN_IGNORED) &&
        s->map_marks[i] == UNREACHED) {
      s->map_marks[i] = REACHABLE;
      s->work[s->work_count++] = (MAP_CLASS << 32) | i;
    }
  drain(s);
}

/* What a leaked block points to is an indirect leak (each leaked block is
 * scanned once, here). */
static void find_indirect(struct md_scan *s, uint64_t ref, uint8_t *mark,
                          const struct md_scan_node *n, void *arg) {
  (void)arg;
  if (*mark == REACHABLE)
    return;
  uintptr_t begin = n->begin, end = n->end;
  if (n->kind == MD_SCAN_NODE_LARGE)
    scan_sparse(s, begin, end, INDIRECT, ref, false);
  else
    scan_words(s, begin, end, INDIRECT, ref, false);
}

struct collect {
  struct md_scan_result *r;
  bool with_reachable;
};

/* Copies node n into the result as `kind`. */
static void add_result(struct md_scan_result *r, const struct md_scan_node *n,
                       enum md_scan_kind kind) {
  if (r->count == r->capacity)
    return;
  struct md_scan_block *b = &r->blocks[r->count++];
  *b = (struct md_scan_block){n->begin, n->size, 0, 0, 0, (uint8_t)kind, 0, 0};
  md_scan_describe(n, b);
}

static void collect(struct md_scan *s, uint64_t ref, uint8_t *mark,
                    const struct md_scan_node *n, void *arg) {
  (void)s;
  (void)ref;
  struct collect *c = arg;
  struct md_scan_result *r = c->r;
  enum md_scan_kind kind = *mark == REACHABLE ? MD_SCAN_REACHABLE
                           : *mark == INDIRECT ? MD_SCAN_INDIRECT
                                               : MD_SCAN_DIRECT;
  if (kind == MD_SCAN_REACHABLE) {
    r->reachable_blocks++;
    r->reachable_bytes += n->size;
    if (!c->with_reachable)
      return;
  } else if (n->flags & (MD_SCAN_IGNORED | MD_SCAN_EXCUSED)) {
    return; /* kept on purpose, reported before, or the parent's */
  } else {
    md_scan_mark_reported(n);
  }
  add_result(r, n, kind);
}

/* What a leaked mapping points to is an indirect leak, but not the other
 * pieces of its own mmap (marked SIBLING meanwhile). */
static void find_indirect_from_map(struct md_scan *s, size_t i) {
  for (size_t j = s->next_piece[i]; j != i; j = s->next_piece[j])
    if (s->map_marks[j] == UNREACHED)
      s->map_marks[j] = SIBLING;
  scan_map(s, i, INDIRECT, false);
  for (size_t j = s->next_piece[i]; j != i; j = s->next_piece[j])
    if (s->map_marks[j] == SIBLING)
      s->map_marks[j] = UNREACHED;
}

/* As collect, for mapping i: as its mmap's pieces are (one indirect: all). */
static void collect_map(struct md_scan *s, size_t i, struct collect *c) {
  struct md_scan_result *r = c->r;
  const struct md_scan_node *m = &s->maps[i];
  uint8_t mark = s->map_marks[i];
  for (size_t j = s->next_piece[i]; j != i; j = s->next_piece[j])
    if (s->map_marks[j] == INDIRECT)
      mark = INDIRECT;
  size_t size = m->end - m->begin;
  enum md_scan_kind kind = mark == REACHABLE  ? MD_SCAN_REACHABLE
                           : mark == INDIRECT ? MD_SCAN_INDIRECT
                                              : MD_SCAN_DIRECT;
  if (kind == MD_SCAN_REACHABLE) {
    r->reachable_maps++;
    r->reachable_map_bytes += size;
    if (!c->with_reachable)
      return;
  } else if (m->flags & (MD_SCAN_IGNORED | MD_SCAN_EXCUSED)) {
    return;
  } else {
    md_scan_mark_reported(m);
  }
  add_result(r, m, kind);
}

bool md_scan_finish(struct md_scan *s, bool with_reachable,
                    struct md_scan_result *r) {
  memset(r, 0, sizeof(*r));
  each_live(s, REACHABLE, find_indirect, NULL);
  for (size_t i = 0; i < s->map_count; i++)
    if (s->map_marks[i] != REACHABLE)
      find_indirect_from_map(s, i);
  r->capacity = s->live + 1;
  r->bytes = r->capacity * sizeof(struct md_scan_block);
  if (!(r->blocks = md_mmap(r->bytes)))
    return false;
  struct collect c = {r, with_reachable};
  each_live(s, SIBLING, collect, &c);
  for (size_t i = 0; i < s->map_count; i++)
    collect_map(s, i, &c);
  return true;
}

void md_scan_result_free(struct md_scan_result *r) {
  md_munmap(r->blocks, r->bytes);
  memset(r, 0, sizeof(*r));
}
