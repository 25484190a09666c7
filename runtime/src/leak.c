/* leak.c - the exit-time walk over blocks still allocated: their guards are
 * checked, and with leak_track they are reported, grouped by allocation
 * site, largest group first (within a group, largest block first).
 *
 * Blocks allocated from libc, libstdc++ and the loader themselves (stdio
 * buffers, the exception emergency pool, locale data) are the runtime's
 * own long-lived state, not the program's leaks, and are not reported; nor
 * are blocks a forked child inherited from its parent.
 * Works on a snapshot taken into mmap'ed memory; never allocates, never
 * calls qsort (glibc's may allocate).
 */
#include <string.h>

#include "chunk.h"

#define MAX_BLOCKS_SHOWN 8 /* per site */

struct leak {
  md_origin_t origin;
  bool inherited; /* allocated before the fork that made this process */
  size_t size;
  uintptr_t user;
  size_t group_bytes; /* filled in after grouping */
  size_t group_count;
};

struct snapshot {
  struct leak *items;
  size_t count, capacity;
};

static void take(void *user, void *arg) {
  struct snapshot *s = arg;
  if (s->count < s->capacity) {
    struct md_chunk *c = md_chunk_of(user);
    s->items[s->count++] = (struct leak){
        c->alloc_origin, md_chunk_epoch(c) != (md_fork_epoch & MD_EPOCH_MASK),
        c->size, (uintptr_t)user, 0, 0};
  }
}

/* Heap sort; `before(a, b)` is the order wanted. */
static void sort(struct leak *v, size_t n,
                 bool (*before)(const struct leak *, const struct leak *)) {
  for (size_t start = n / 2; n > 1;) {
    size_t root;
    if (start > 0) {
      root = --start;
    } else {
      struct leak t = v[0];
      v[0] = v[--n];
      v[n] = t;
      root = 0;
    }
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
      if (child + 1 < n && before(&v[child], &v[child + 1]))
        child++;
      if (!before(&v[root], &v[child]))
        break;
      struct leak t = v[root];
      v[root] = v[child];
      v[child] = t;
    }
  }
}

static bool by_origin_then_size(const struct leak *a, const struct leak *b) {
  if (a->origin != b->origin)
    return a->origin < b->origin;
  if (a->size != b->size)
    return a->size > b->size;
  return a->user < b->user;
}

static bool by_group_bytes(const struct leak *a, const struct leak *b) {
  if (a->group_bytes != b->group_bytes)
    return a->group_bytes > b->group_bytes;
  if (a->origin != b->origin)
    return a->origin < b->origin;
  if (a->size != b->size)
    return a->size > b->size;
  return a->user < b->user;
}

void md_leak_report_at_exit(void) {
  size_t expected = md_track_count(MD_TRACK_LIVE);
  if (expected == 0)
    return;
  struct snapshot snap = {0, 0, expected + expected / 4 + 64};
  size_t bytes = snap.capacity * sizeof(struct leak);
  snap.items = md_mmap(bytes);
  if (!snap.items) {
    md_log("mdebug: not enough memory to list %zu live blocks at exit",
           expected);
    return;
  }
  md_track_for_each(MD_TRACK_LIVE, take, &snap);

  /* Guards of every live block; then keep only the program's own blocks. */
  size_t kept = 0;
  md_origin_t last_origin = 0;
  bool last_system = false;
  for (size_t i = 0; i < snap.count; i++) {
    struct leak *l = &snap.items[i];
    md_guard_check(md_chunk_of((void *)l->user), 0, 0);
    if (l->origin != last_origin) {
      last_origin = l->origin;
      last_system = md_origin_is_system(l->origin);
    }
    if (md_opt.leak_track && !last_system && !l->inherited)
      snap.items[kept++] = *l;
  }

  size_t total_bytes = 0;
  if (kept) {
    sort(snap.items, kept, by_origin_then_size);
    for (size_t i = 0; i < kept;) {
      size_t j = i, sum = 0;
      for (; j < kept && snap.items[j].origin == snap.items[i].origin; j++)
        sum += snap.items[j].size;
      for (size_t k = i; k < j; k++) {
        snap.items[k].group_bytes = sum;
        snap.items[k].group_count = j - i;
      }
      total_bytes += sum;
      i = j;
    }
    sort(snap.items, kept, by_group_bytes);
    if (md_report_begin(MD_ERR_LEAK)) {
      md_report_line("mdebug: %zu byte%s leaked in %zu block%s", total_bytes,
                     total_bytes == 1 ? "" : "s", kept, kept == 1 ? "" : "s");
      size_t shown = 0;
      for (size_t i = 0; i < kept; i++) {
        struct leak *l = &snap.items[i];
        bool first = i == 0 || l->origin != snap.items[i - 1].origin;
        if (first) {
          struct md_chunk *c = md_chunk_of((void *)l->user);
          md_report_line("%zu byte%s in %zu block%s:", l->group_bytes,
                         l->group_bytes == 1 ? "" : "s", l->group_count,
                         l->group_count == 1 ? "" : "s");
          md_report_origin("allocated", c->alloc_op, l->origin);
          shown = 0;
        }
        if (++shown <= MAX_BLOCKS_SHOWN)
          md_report_line("+++ %s leaked block of size %zu at %p (leak %zu of %zu)",
                         md_progname(), l->size, (void *)l->user, i + 1, kept);
        else if (shown == MAX_BLOCKS_SHOWN + 1)
          md_report_line("  ... %zu more block%s from this site",
                         l->group_count - MAX_BLOCKS_SHOWN,
                         l->group_count - MAX_BLOCKS_SHOWN == 1 ? "" : "s");
      }
      md_report_end();
    }
    md_report_add_leaks(kept, total_bytes);
  }
  md_munmap(snap.items, bytes);
}
