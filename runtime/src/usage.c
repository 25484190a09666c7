/* usage.c - the program's memory by category (heap blocks, mappings,
 * thread stacks) and by allocation site, for log_allocator_stats, heap
 * dumps and the thresholds' reports; and the heap dump's extension section
 * that lists them.
 *
 * One walk of the heap's metadata (md_heap_for_each, while other threads
 * run: a block changing state meanwhile may be counted either way) and
 * copies of the mapping and thread tables; totals per (category, site) in
 * a hash table sized from the number of sites the process has, so the
 * cost is one pass and a sort of the sites, not of the blocks. Runs in a
 * normal thread context (the service thread, the exit handler, the
 * program's call), never in a signal handler; never allocates through
 * malloc (everything is md_mmap'ed).
 */
#include <string.h>

#include "base.h"
#include "heap.h"
#include "init.h"
#include "log.h"
#include "mappings.h"
#include "origin.h"
#include "outfile.h"
#include "print.h"
#include "scan_contract.h"
#include "site.h"
#include "sort.h"
#include "stacks.h"
#include "thread_stacks.h"
#include "usage.h"

/* Cold code (heap dumps and statistics only): base.h. */
#pragma clang section text = "mdebug_cold"

static const char *const category_names[MD_CATS] = {"heap blocks", "mappings",
                                                    "thread stacks"};
static const char *const category_keys[MD_CATS] = {"heap_blocks", "mappings",
                                                   "thread_stacks"};
static const char *const unit[MD_CATS][2] = {
    {"block", "blocks"}, {"mapping", "mappings"}, {"stack", "stacks"}};

struct table {
  struct md_usage_site *slots; /* origin 0 and count 0: empty */
  size_t mask, bytes;
};

static struct md_usage_site *slot_of(struct table *t, uint8_t category,
                                     md_origin_t origin) {
  size_t i = (md_origin_hash(origin) + category * 0x9e37u) & t->mask;
  for (;; i = (i + 1) & t->mask) {
    struct md_usage_site *s = &t->slots[i];
    if (!s->count)
      return s;
    if (s->origin == origin && s->category == category)
      return s;
  }
}

static void add(struct md_usage *u, struct table *t, uint8_t category,
                md_origin_t origin, uint8_t op, size_t bytes) {
  struct md_usage_site *s = slot_of(t, category, origin);
  if (!s->count) {
    s->origin = origin;
    s->category = category;
    s->op = op;
    u->n++;
  }
  s->count++;
  s->bytes += bytes;
  u->bytes[category] += bytes;
  u->count[category]++;
}

struct walk {
  struct md_usage *u;
  struct table *t;
  size_t limit; /* distinct sites the table may take */
};

static void take_block(const struct md_block *b, void *arg) {
  struct walk *w = arg;
  uint32_t bits = __atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE);
  if (MD_BITS_STATE(bits) != MD_STATE_LIVE)
    return;
  md_origin_t o = md_origin_of(b->meta->alloc_origin);
  if (w->u->n >= w->limit && !slot_of(w->t, MD_CAT_BLOCKS, o)->count)
    o = 0; /* sites that appeared during the walk: counted as unknown */
  add(w->u, w->t, MD_CAT_BLOCKS, o, (uint8_t)MD_BITS_ALLOC_OP(bits), b->size);
}

static bool largest_first(const void *pa, const void *pb) {
  const struct md_usage_site *a = pa, *b = pb;
  if (a->bytes != b->bytes)
    return a->bytes > b->bytes;
  if (a->category != b->category)
    return a->category < b->category;
  return a->origin < b->origin;
}

static bool by_address(const void *pa, const void *pb) {
  return ((const struct md_mapping *)pa)->begin <
         ((const struct md_mapping *)pb)->begin;
}

/* Copies a table (collect(out, cap) returns how many there are) into an
 * md_mmap'ed array, retrying while it grows. */
#define COPY_TABLE(COLLECT, TYPE, OUT, N, CAP)                                 \
  do {                                                                         \
    size_t want = COLLECT(NULL, 0) + 16;                                       \
    for (;;) {                                                                 \
      CAP = want * sizeof(TYPE);                                               \
      if (!(OUT = md_mmap(CAP)))                                               \
        goto fail;                                                             \
      N = COLLECT(OUT, want);                                                  \
      if (N <= want)                                                           \
        break;                                                                 \
      md_munmap(OUT, CAP);                                                     \
      OUT = NULL;                                                              \
      want = N + N / 4;                                                        \
    }                                                                          \
  } while (0)

bool md_usage_collect(struct md_usage *u) {
  memset(u, 0, sizeof(*u));
  md_ensure_init();
  if (md_mmap_tracking()) {
    COPY_TABLE(md_mmap_collect, struct md_mapping, u->maps, u->nmaps,
               u->maps_capacity);
    md_sort(u->maps, u->nmaps, sizeof(u->maps[0]), by_address);
    COPY_TABLE(md_threads_collect, struct md_thread_stack, u->stacks,
               u->nstacks, u->stacks_capacity);
  }
  size_t limit = md_origin_count() + u->nmaps + u->nstacks + 64, size = 64;
  while (size < 2 * limit)
    size *= 2;
  struct table t = {NULL, size - 1, size * sizeof(struct md_usage_site)};
  if (!(t.slots = md_mmap(t.bytes)))
    goto fail;
  for (size_t i = 0; i < u->nmaps; i++)
    add(u, &t, MD_CAT_MAPPINGS, u->maps[i].origin, u->maps[i].op,
        u->maps[i].end - u->maps[i].begin);
  for (size_t i = 0; i < u->nstacks; i++)
    add(u, &t, MD_CAT_STACKS, u->stacks[i].origin, MD_OP_pthread_create,
        u->stacks[i].hi - u->stacks[i].lo);
  struct walk w = {u, &t, limit};
  md_heap_for_each(1u << MD_STATE_LIVE, take_block, &w);
  /* The occupied slots, packed to the front, largest first. */
  size_t n = 0;
  for (size_t i = 0; i <= t.mask; i++)
    if (t.slots[i].count)
      t.slots[n++] = t.slots[i];
  md_sort(t.slots, n, sizeof(t.slots[0]), largest_first);
  u->sites = t.slots;
  u->n = n;
  u->capacity = t.bytes;
  return true;
fail:
  md_usage_free(u);
  return false;
}

void md_usage_free(struct md_usage *u) {
  md_munmap(u->sites, u->capacity);
  md_munmap(u->maps, u->maps_capacity);
  md_munmap(u->stacks, u->stacks_capacity);
  memset(u, 0, sizeof(*u));
}

static const char *units(unsigned category, size_t n) {
  return unit[category][n != 1];
}

void md_usage_log(const struct md_usage *u, const char *prefix, size_t top) {
  char line[512];
  size_t len = md_format(line, sizeof(line), "%sby category:", prefix);
  for (unsigned c = 0; c < MD_CATS; c++)
    len += md_format(line + len, sizeof(line) - len, "%s %s %zu bytes in %zu %s",
                     c ? ";" : "", category_names[c], u->bytes[c], u->count[c],
                     units(c, u->count[c]));
  md_log("%s", line);
  char where[512];
  for (size_t i = 0; i < u->n && i < top; i++) {
    const struct md_usage_site *s = &u->sites[i];
    md_origin_describe(where, sizeof(where), s->origin);
    md_log("%s  %zu bytes in %zu %s by %s at %s", prefix, s->bytes, s->count,
           units(s->category, s->count), md_op_name(s->op), where);
  }
  if (u->n > top)
    md_log("%s  ... %zu more site%s", prefix, u->n - top,
           u->n - top == 1 ? "" : "s");
}

/* Between the records and MAPS. Every line starts with "mdebug " (or is the
 * header): Android's tools take only lines starting "z " and lines shaped
 * as /proc/PID/maps lines, and skip the rest. The site is last: its text
 * may hold spaces. */
void md_usage_write_dump(struct md_out *o, const struct md_usage *u) {
  char where[512], how[64];
  md_out_printf(o, "MDEBUG EXTENSION v1: totals by category and site, "
                   "mappings, thread stacks (not Android's; its tools skip "
                   "these lines)\n");
  for (unsigned c = 0; c < MD_CATS; c++)
    md_out_printf(o, "mdebug total %s bytes %zu count %zu\n", category_keys[c],
                  u->bytes[c], u->count[c]);
  for (size_t i = 0; i < u->n; i++) {
    const struct md_usage_site *s = &u->sites[i];
    md_origin_describe(where, sizeof(where), s->origin);
    md_out_printf(o, "mdebug site %s bytes %zu count %zu by %s at %s\n",
                  category_keys[s->category], s->bytes, s->count,
                  md_op_name(s->op), where);
  }
  for (size_t i = 0; i < u->nmaps; i++) {
    const struct md_mapping *m = &u->maps[i];
    md_mapping_describe(how, sizeof(how), m->prot, m->flags);
    md_origin_describe(where, sizeof(where), m->origin);
    md_out_printf(o, "mdebug mapping %lx-%lx sz %zu %s bt",
                  (unsigned long)m->begin, (unsigned long)m->end,
                  (size_t)(m->end - m->begin), how);
    size_t n;
    const uintptr_t *pcs = md_depot_get(m->stack, &n);
    for (size_t k = 0; k < n; k++)
      md_out_printf(o, " %lx", (unsigned long)pcs[k]);
    md_out_printf(o, " by %s at %s\n", md_op_name(m->op), where);
  }
  for (size_t i = 0; i < u->nstacks; i++) {
    const struct md_thread_stack *t = &u->stacks[i];
    md_origin_describe(where, sizeof(where), t->origin);
    md_out_printf(o, "mdebug thread_stack %lx-%lx sz %zu guard %zu %s bt",
                  (unsigned long)t->lo, (unsigned long)t->hi,
                  (size_t)(t->hi - t->lo), t->guard,
                  t->exited ? "exited" : "running");
    size_t n;
    const uintptr_t *pcs = md_depot_get(t->stack, &n);
    for (size_t k = 0; k < n; k++)
      md_out_printf(o, " %lx", (unsigned long)pcs[k]);
    md_out_printf(o, " by pthread_create at %s\n", where);
  }
}
