/* output.c - the reports as tables (one builder per report of reports.def),
 * and their text and CSV renderings; folded stacks. A table holds
 * ready-made cells: numbers are for people in text and HTML ("1.5 KiB") and
 * plain in CSV. Text from the input (paths, function names, labels) is
 * escaped where it is printed, never trusted to be printable.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* ---- tables ------------------------------------------------------------------ */

void table_init(struct table *t, const char *title, size_t ncols,
                const char **head, const enum align *align) {
  memset(t, 0, sizeof(*t));
  t->title = title;
  t->ncols = ncols;
  t->head = head;
  t->align = align;
}

void table_row(struct table *t, const char *detail, ...) {
  va_list ap;
  va_start(ap, detail);
  for (size_t i = 0; i < t->ncols; i++)
    *vec_push(&t->cells) = xstrdup(va_arg(ap, const char *));
  va_end(ap);
  *vec_push(&t->details) = detail ? xstrdup(detail) : NULL;
}

size_t table_rows(const struct table *t) { return t->details.n; }

void table_free(struct table *t) {
  for (size_t i = 0; i < t->cells.n; i++)
    free(t->cells.v[i]);
  for (size_t i = 0; i < t->details.n; i++)
    free(t->details.v[i]);
  free(t->cells.v);
  free(t->details.v);
  free((void *)t->note);
  free(t);
}

static struct table *new_table(const char *title, size_t ncols,
                               const char **head, const enum align *align) {
  struct table *t = xmalloc(sizeof(*t));
  table_init(t, title, ncols, head, align);
  return t;
}

/* Cells: human numbers, or plain ones for CSV. */
static const char *c_bytes(double v, char buf[32]) {
  if (opt.format == F_CSV)
    snprintf(buf, 32, "%.0f", v);
  else
    fmt_bytes(v, buf);
  return buf;
}
static const char *c_count(double v, char buf[32]) {
  snprintf(buf, 32, "%.0f", v);
  return buf;
}
static const char *c_time(uint64_t ns, char buf[32]) {
  if (opt.format == F_CSV)
    snprintf(buf, 32, "%.9f", (double)ns / 1e9);
  else
    fmt_time(ns, buf);
  return buf;
}
static const char *c_id(uint64_t id, char buf[32]) {
  snprintf(buf, 32, "%016lx", (unsigned long)id);
  return buf;
}

/* The frames of a stack, one "#NN frame" line each, for a row's detail.
 * Details are escaped here (text_escape), so a name holding a newline
 * cannot pass for a line of its own; printers write them as they are. */
static char *stack_text(const struct profile *p, uint32_t stack) {
  const struct stack *st = stack_of(p, stack);
  if (!st || !st->n)
    return NULL;
  size_t cap = 64 * st->n + 1, len = 0;
  char *out = xmalloc(cap);
  out[0] = '\0';
  for (uint32_t i = 0; i < st->n; i++) {
    char fb[512];
    frame_label(p, &p->frames.v[st->first + i], fb, sizeof(fb));
    char *e = text_escape(fb);
    size_t need = len + strlen(e) + 16;
    if (need > cap)
      out = xrealloc(out, cap = need * 2);
    len += (size_t)sprintf(out + len, "%s#%02u %s", i ? "\n" : "", i, e);
    free(e);
  }
  return out;
}

/* Rows under min_percent of `total` bytes, and past the limit, are left
 * out; returns whether the row is shown. */
static bool shown(size_t rank, double bytes, double total) {
  if (opt.limit && rank >= opt.limit)
    return false;
  if (opt.min_percent > 0 && total > 0 &&
      fabs(bytes) * 100.0 < opt.min_percent * total)
    return false;
  return true;
}

/* ---- per-site totals: the allocation points ----------------------------------- */
struct site_sum {
  uint32_t site;
  double live_bytes, live_blocks, allocs, frees, bytes, peak;
  bool have_counts; /* from periodic totals (exact counters) */
  uint32_t stack;   /* its heaviest stack in the snapshot */
  double stack_bytes;
};

static int by_live_bytes(const void *a, const void *b) {
  const struct site_sum *x = a, *y = b;
  if (x->live_bytes != y->live_bytes)
    return x->live_bytes < y->live_bytes ? 1 : -1;
  return x->site < y->site ? -1 : x->site > y->site;
}

/* One entry per site, indexed by site. */
static struct site_sum *site_sums(const struct profile *p,
                                  const struct snapshot *sn,
                                  const char **source) {
  struct site_sum *s = xcalloc(p->sites.n ? p->sites.n : 1, sizeof(*s));
  for (size_t i = 0; i < p->sites.n; i++) {
    s[i].site = (uint32_t)i;
    s[i].stack = NONE;
  }
  const struct totals *last = p->totals.n ? &p->totals.v[p->totals.n - 1] : 0;
  if (last) {
    *source = "the last periodic totals (exact)";
    for (uint32_t k = 0; k < last->n; k++) {
      const struct site_row *r = &p->rows.v[last->first + k];
      struct site_sum *x = &s[r->site];
      x->live_bytes = (double)r->live_bytes;
      x->live_blocks = (double)r->live_blocks;
      x->allocs = (double)r->allocs;
      x->frees = (double)r->frees;
      x->bytes = (double)r->bytes;
      x->peak = (double)r->peak;
      x->have_counts = true;
    }
  } else {
    bool sampled = false;
    for (size_t i = 0; i < p->samplings.n; i++)
      sampled |= p->samplings.v[i].rate > 1 || p->samplings.v[i].bytes > 0;
    *source = !sn ? "nothing (no periodic totals, no snapshot)"
              : sampled ? "the snapshot's sampled blocks (estimates)"
                        : "the snapshot's blocks";
  }
  if (!sn)
    return s;
  /* Stacks (and, without totals, the live figures) from the snapshot: the
   * heaviest stack of each site, summing bytes per (site, stack). */
  struct pair {
    uint32_t site, stack;
    double bytes;
  } *pairs = xmalloc((sn->n ? sn->n : 1) * sizeof(*pairs));
  for (uint32_t k = 0; k < sn->n; k++) {
    const struct block *b = &p->blocks.v[sn->first + k];
    double by, bl;
    block_weight(p, b, &by, &bl);
    if (!last) {
      s[b->site].live_bytes += by;
      s[b->site].live_blocks += bl;
    }
    pairs[k] = (struct pair){b->site, b->stack, by};
  }
  struct map m = {0};
  VEC(double) acc = {0};
  for (uint32_t k = 0; k < sn->n; k++) {
    uint64_t key = (uint64_t)pairs[k].site << 32 | pairs[k].stack;
    uint32_t i = map_get(&m, key);
    if (i == NONE) {
      *vec_push(&acc) = 0;
      i = (uint32_t)(acc.n - 1);
      map_put(&m, key, i);
    }
    acc.v[i] += pairs[k].bytes;
    struct site_sum *x = &s[pairs[k].site];
    if (acc.v[i] > x->stack_bytes && pairs[k].stack != NONE) {
      x->stack_bytes = acc.v[i];
      x->stack = pairs[k].stack;
    }
  }
  map_free(&m);
  free(acc.v);
  free(pairs);
  return s;
}

static struct table *alloc_points(const struct profile *p) {
  static const char *head[] = {"rank", "live bytes", "% bytes", "live blocks",
                               "allocs", "frees", "avg size", "peak bytes",
                               "site id", "site"};
  static const enum align al[] = {RIGHT, RIGHT, RIGHT, RIGHT, RIGHT,
                                  RIGHT, RIGHT, RIGHT, LEFT,  LEFT};
  const struct snapshot *sn = find_snapshot(p, opt.snapshot);
  const char *source;
  struct site_sum *s = site_sums(p, sn, &source);
  size_t n = 0;
  double total = 0, total_blocks = 0;
  for (size_t i = 0; i < p->sites.n; i++)
    if (p->sites.v[i].kept && (s[i].live_bytes > 0 || s[i].allocs > 0)) {
      total += s[i].live_bytes;
      total_blocks += s[i].live_blocks;
      s[n++] = s[i];
    }
  qsort(s, n, sizeof(*s), by_live_bytes);
  struct table *t = new_table("Allocation points", 10, head, al);
  char b1[32], b2[32];
  t->note = xasprintf("sites by outstanding bytes, from %s; total %s in %s "
                      "blocks",
                      source, fmt_bytes(total, b1), c_count(total_blocks, b2));
  for (size_t i = 0; i < n; i++) {
    if (!shown(i, s[i].live_bytes, total))
      continue;
    char c[9][32], label[1024];
    char *detail = stack_text(p, s[i].stack);
    snprintf(c[0], 32, "%zu", i + 1);
    snprintf(c[2], 32, "%.1f%%", total > 0 ? 100 * s[i].live_bytes / total : 0);
    bool counts = s[i].have_counts;
    table_row(t, detail, c[0], c_bytes(s[i].live_bytes, c[1]), c[2],
              c_count(s[i].live_blocks, c[3]),
              counts ? c_count(s[i].allocs, c[4]) : "-",
              counts ? c_count(s[i].frees, c[5]) : "-",
              counts && s[i].allocs > 0 ? c_bytes(s[i].bytes / s[i].allocs, c[6])
              : s[i].live_blocks > 0
                  ? c_bytes(s[i].live_bytes / s[i].live_blocks, c[6])
                  : "-",
              counts ? c_bytes(s[i].peak, c[7]) : "-",
              c_id(p->sites.v[s[i].site].id, c[8]),
              site_label(p, s[i].site, label, sizeof(label)));
    free(detail);
  }
  free(s);
  return t;
}

/* ---- deallocation points ------------------------------------------------------ */
struct dealloc {
  uint32_t site, free_site, free_stack;
  double bytes, blocks, lifetime, group_bytes;
};

static int by_dealloc(const void *a, const void *b) {
  const struct dealloc *x = a, *y = b;
  if (x->group_bytes != y->group_bytes)
    return x->group_bytes < y->group_bytes ? 1 : -1;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? 1 : -1;
  return x->free_site < y->free_site ? -1 : x->free_site > y->free_site;
}

static struct table *dealloc_points(const struct profile *p) {
  static const char *head[] = {"alloc site id", "freed bytes", "frees",
                               "avg lifetime", "free site id", "freed by",
                               "allocation point"};
  static const enum align al[] = {LEFT, RIGHT, RIGHT, RIGHT, LEFT, LEFT, LEFT};
  struct table *t =
      new_table("Deallocation points per allocation point", 7, head, al);
  if (!p->frees.n) {
    t->note = xstrdup("no frees of sampled blocks in this input");
    return t;
  }
  struct map m = {0};
  VEC(struct dealloc) d = {0};
  double *site_total = xcalloc(p->sites.n, sizeof(double));
  double total = 0;
  for (size_t i = 0; i < p->frees.n; i++) {
    const struct free_event *e = &p->frees.v[i];
    if (!p->sites.v[e->site].kept)
      continue;
    uint64_t key = hash_bytes(hash_bytes(hash_bytes(0xcbf29ce484222325ull,
                                                    &e->site, 4),
                                         &e->free_site, 4),
                              &e->free_stack, 4);
    uint32_t k = map_get(&m, key);
    if (k == NONE) {
      struct dealloc *x = vec_push(&d);
      x->site = e->site;
      x->free_site = e->free_site;
      x->free_stack = e->free_stack;
      k = (uint32_t)(d.n - 1);
      map_put(&m, key, k);
    }
    struct block b = {e->site, e->stack, 0, e->size, e->alloc_time, 0, 0};
    double by, bl;
    block_weight(p, &b, &by, &bl);
    d.v[k].bytes += by;
    d.v[k].blocks += bl;
    d.v[k].lifetime += bl * (double)(e->time - (e->alloc_time < e->time
                                                    ? e->alloc_time
                                                    : e->time));
    site_total[e->site] += by;
    total += by;
  }
  for (size_t i = 0; i < d.n; i++)
    d.v[i].group_bytes = site_total[d.v[i].site];
  qsort(d.v, d.n, sizeof(*d.v), by_dealloc);
  t->note = xasprintf("frees of sampled blocks, grouped by where the block was "
                      "allocated, then by where it was freed (estimates)");
  size_t groups = 0;
  for (size_t i = 0; i < d.n; i++) {
    if (i == 0 || d.v[i].site != d.v[i - 1].site)
      groups++;
    if (!shown(groups - 1, d.v[i].group_bytes, total))
      continue;
    char c[6][32], fl[1024], al2[1024];
    char *detail = stack_text(p, d.v[i].free_stack);
    table_row(t, detail, c_id(p->sites.v[d.v[i].site].id, c[0]),
              c_bytes(d.v[i].bytes, c[1]), c_count(d.v[i].blocks, c[2]),
              c_time(d.v[i].blocks > 0
                         ? (uint64_t)(d.v[i].lifetime / d.v[i].blocks)
                         : 0,
                     c[3]),
              c_id(p->sites.v[d.v[i].free_site].id, c[4]),
              site_label(p, d.v[i].free_site, fl, sizeof(fl)),
              site_label(p, d.v[i].site, al2, sizeof(al2)));
    free(detail);
  }
  map_free(&m);
  free(d.v);
  free(site_total);
  return t;
}

/* ---- all allocations ----------------------------------------------------------- */
static const struct profile *sort_profile;
static int by_block_time(const void *a, const void *b) {
  const struct block *x = a, *y = b;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct table *allocations(const struct profile *p) {
  static const char *head[] = {"allocated", "address", "size", "stands for",
                               "thread", "site id", "site"};
  static const enum align al[] = {RIGHT, LEFT, RIGHT, RIGHT, RIGHT, LEFT, LEFT};
  struct table *t = new_table("All allocations", 7, head, al);
  const struct snapshot *sn = find_snapshot(p, opt.snapshot);
  if (!sn) {
    t->note = xstrdup(opt.snapshot ? "no such snapshot in this input"
                                   : "no snapshot in this input");
    return t;
  }
  struct block *v = xmalloc((sn->n ? sn->n : 1) * sizeof(*v));
  size_t n = 0;
  for (uint32_t k = 0; k < sn->n; k++)
    if (p->sites.v[p->blocks.v[sn->first + k].site].kept)
      v[n++] = p->blocks.v[sn->first + k];
  sort_profile = p;
  qsort(v, n, sizeof(*v), by_block_time);
  char tb[32];
  t->note = xasprintf("the live blocks of snapshot %lu '%s' (at %s), by "
                      "allocation time; 'stands for' is the sampling "
                      "estimate of the bytes each one represents",
                      (unsigned long)sn->number, sn->label ? sn->label : "",
                      fmt_time(sn->time, tb));
  for (size_t i = 0; i < n && (!opt.limit || i < opt.limit); i++) {
    char c[6][32], label[1024];
    double by, bl;
    block_weight(p, &v[i], &by, &bl);
    snprintf(c[1], 32, "0x%lx", (unsigned long)v[i].addr);
    snprintf(c[4], 32, "%u", v[i].tid);
    char size[32];
    if (v[i].count > 1)
      snprintf(size, 32, "%lu x %lu", (unsigned long)v[i].count,
               (unsigned long)v[i].size);
    else
      snprintf(size, 32, "%lu", (unsigned long)v[i].size);
    char *detail = stack_text(p, v[i].stack);
    table_row(t, detail, c_time(v[i].time, c[0]), c[1], size,
              c_bytes(by, c[3]), c[4], c_id(p->sites.v[v[i].site].id, c[5]),
              site_label(p, v[i].site, label, sizeof(label)));
    free(detail);
  }
  free(v);
  return t;
}

/* ---- periodic statistics -------------------------------------------------------- */
static bool all_kept(const struct profile *p) {
  for (size_t i = 0; i < p->sites.n; i++)
    if (!p->sites.v[i].kept)
      return false;
  return true;
}

/* Totals restricted to the kept sites (the file's own when all are). */
static struct totals kept_totals(const struct profile *p, size_t i) {
  struct totals t = p->totals.v[i];
  if (all_kept(p))
    return t;
  struct totals k = {t.time, 0, 0, 0, 0, 0, t.first, t.n, t.expected};
  for (uint32_t r = 0; r < t.n; r++) {
    const struct site_row *row = &p->rows.v[t.first + r];
    if (!p->sites.v[row->site].kept)
      continue;
    k.live_bytes += row->live_bytes;
    k.live_blocks += row->live_blocks;
    k.allocs += row->allocs;
    k.frees += row->frees;
    k.bytes += row->bytes;
  }
  return k;
}

static struct table *periodic(const struct profile *p) {
  static const char *head[] = {"time", "live bytes", "live blocks", "allocs",
                               "frees", "bytes allocated", "change"};
  static const enum align al[] = {RIGHT, RIGHT, RIGHT, RIGHT,
                                  RIGHT, RIGHT, RIGHT};
  struct table *t = new_table("Periodic statistics", 7, head, al);
  if (!p->totals.n) {
    t->note = xstrdup("no periodic totals in this input");
    return t;
  }
  t->note = xasprintf("%zu periodic totals%s", p->totals.n,
                      all_kept(p) ? "" : " (the filtered sites only)");
  double prev = 0;
  for (size_t i = 0; i < p->totals.n && (!opt.limit || i < opt.limit); i++) {
    struct totals k = kept_totals(p, i);
    char c[7][32];
    double change = i ? (double)k.live_bytes - prev : 0;
    prev = (double)k.live_bytes;
    if (opt.format == F_CSV)
      snprintf(c[6], 32, "%.0f", change);
    else
      snprintf(c[6], 32, "%s%s", change > 0 ? "+" : "", fmt_bytes(change, c[5]));
    table_row(t, NULL, c_time(k.time, c[0]), c_bytes((double)k.live_bytes, c[1]),
              c_count((double)k.live_blocks, c[2]),
              c_count((double)k.allocs, c[3]), c_count((double)k.frees, c[4]),
              c_bytes((double)k.bytes, c[5]), c[6]);
  }
  return t;
}

/* ---- time slices --------------------------------------------------------------- */
static struct table *time_slices(const struct profile *p) {
  static const char *head[] = {"slice", "from", "to", "allocs", "frees",
                               "bytes allocated", "live bytes at end",
                               "change", "top growing site", "its change"};
  static const enum align al[] = {RIGHT, RIGHT, RIGHT, RIGHT, RIGHT,
                                  RIGHT, RIGHT, RIGHT, LEFT,  RIGHT};
  struct table *t = new_table("Time-slice summary", 10, head, al);
  if (p->totals.n < 2) {
    t->note = xstrdup("needs periodic totals (at least two) in the input");
    return t;
  }
  uint64_t t0 = p->totals.v[0].time, t1 = p->totals.v[p->totals.n - 1].time;
  if (t1 < t0)
    t1 = t0;
  /* No sum here can wrap, whatever times the input holds: the slice
   * length is the span divided up (rounded up), and slice k starts at
   * t0 + k * dur only for k * dur < span. */
  uint64_t span = t1 - t0 ? t1 - t0 : 1, max = opt.max_slices;
  uint64_t dur = opt.slice_ns ? opt.slice_ns
                              : span / max + (span % max != 0);
  if (span / dur + (span % dur != 0) > max)
    dur = span / max + (span % max != 0);
  uint64_t slices = span / dur + (span % dur != 0);
  char db[32];
  t->note = xasprintf("slices of %s (TimeSliceDuration), at most %zu "
                      "(MaxTimeSlices), from the periodic totals",
                      fmt_time(dur, db), opt.max_slices);
  double *before = xcalloc(p->sites.n, sizeof(double));
  double *after = xcalloc(p->sites.n, sizeof(double));
  size_t a = 0; /* the totals the slice starts from */
  for (uint64_t slice = 0; slice < slices; slice++) {
    uint64_t from = t0 + slice * dur;
    uint64_t to = t1 - from > dur ? from + dur : t1;
    size_t b = a;
    while (b + 1 < p->totals.n && p->totals.v[b + 1].time <= to)
      b++;
    struct totals ka = kept_totals(p, a), kb = kept_totals(p, b);
    memset(before, 0, p->sites.n * sizeof(double));
    memset(after, 0, p->sites.n * sizeof(double));
    const struct totals *ta = &p->totals.v[a], *tb = &p->totals.v[b];
    for (uint32_t r = 0; r < ta->n; r++)
      before[p->rows.v[ta->first + r].site] =
          (double)p->rows.v[ta->first + r].live_bytes;
    for (uint32_t r = 0; r < tb->n; r++)
      after[p->rows.v[tb->first + r].site] =
          (double)p->rows.v[tb->first + r].live_bytes;
    uint32_t top = NONE;
    double top_change = 0;
    for (size_t s = 0; s < p->sites.n; s++)
      if (p->sites.v[s].kept && after[s] - before[s] > top_change) {
        top_change = after[s] - before[s];
        top = (uint32_t)s;
      }
    char c[10][32], label[1024] = "-";
    if (top != NONE)
      site_label(p, top, label, sizeof(label));
    snprintf(c[0], 32, "%llu", (unsigned long long)slice + 1);
    double change = (double)kb.live_bytes - (double)ka.live_bytes;
    if (opt.format == F_CSV)
      snprintf(c[7], 32, "%.0f", change);
    else
      snprintf(c[7], 32, "%s%s", change > 0 ? "+" : "", fmt_bytes(change, c[9]));
    table_row(t, NULL, c[0], c_time(from, c[1]), c_time(to, c[2]),
              c_count((double)(kb.allocs - ka.allocs), c[3]),
              c_count((double)(kb.frees - ka.frees), c[4]),
              c_bytes((double)(kb.bytes - ka.bytes), c[5]),
              c_bytes((double)kb.live_bytes, c[6]), c[7], label,
              top != NONE ? c_bytes(top_change, c[8]) : "-");
    a = b;
  }
  free(before);
  free(after);
  return t;
}

/* ---- double frees ---------------------------------------------------------------- */
static struct table *double_frees(const struct profile *p) {
  static const char *head[] = {"time", "address", "size", "thread",
                               "allocated by", "first freed by",
                               "freed again by"};
  static const enum align al[] = {RIGHT, LEFT, RIGHT, RIGHT, LEFT, LEFT, LEFT};
  struct table *t = new_table("Double deallocations", 7, head, al);
  t->note = xasprintf("%zu double free%s", p->double_frees.n,
                      p->double_frees.n == 1 ? "" : "s");
  for (size_t i = 0; i < p->double_frees.n && (!opt.limit || i < opt.limit);
       i++) {
    const struct double_free *d = &p->double_frees.v[i];
    if (!p->sites.v[d->site].kept)
      continue;
    char c[4][32], l1[1024], l2[1024], l3[1024];
    snprintf(c[1], 32, "0x%lx", (unsigned long)d->addr);
    snprintf(c[2], 32, "%lu", (unsigned long)d->size);
    snprintf(c[3], 32, "%u", d->tid);
    char *detail = stack_text(p, d->stack);
    table_row(t, detail, c_time(d->time, c[0]), c[1], c[2], c[3],
              site_label(p, d->site, l1, sizeof(l1)),
              site_label(p, d->free_site, l2, sizeof(l2)),
              site_label(p, d->second_site, l3, sizeof(l3)));
    free(detail);
  }
  return t;
}

/* ---- growth ------------------------------------------------------------------------ */
static struct table *growth(const struct profile *p) {
  static const char *head[] = {"rank", "score", "growth rate", "R^2",
                               "monotonic", "after warm-up", "at end",
                               "site id", "site"};
  static const enum align al[] = {RIGHT, RIGHT, RIGHT, RIGHT, RIGHT,
                                  RIGHT, RIGHT, LEFT,  LEFT};
  struct table *t = new_table("Growth analysis", 9, head, al);
  struct growth *g;
  uint64_t warm;
  size_t points;
  size_t n = growth_analysis(p, &g, &warm, &points);
  char wb[32];
  if (points < 3) {
    t->note = xasprintf("needs at least 3 periodic totals or snapshots after "
                        "the warm-up (ending at %s); this input has %zu",
                        fmt_time(warm, wb), points);
    free(g);
    return t;
  }
  double total = 0;
  size_t growing = 0;
  for (size_t i = 0; i < n; i++)
    if (g[i].score > 0) {
      total += g[i].score;
      growing++;
    }
  char zero[64] = "";
  if (opt.show_zero_growth)
    snprintf(zero, sizeof(zero), " (and %zu that did not)", n - growing);
  t->note = xasprintf(
      "%zu site%s growing%s, ranked by score = fitted growth x R^2 x "
      "monotonicity, over %zu %s after a warm-up ending at %s",
      growing, growing == 1 ? "" : "s", zero, points,
      p->totals.n >= 2 ? "periodic totals" : "snapshots (sampled estimates)",
      fmt_time(warm, wb));
  for (size_t i = 0; i < n; i++) {
    if (!shown(i, g[i].score, total))
      continue;
    char c[9][32], label[1024], b1[32];
    snprintf(c[0], 32, "%zu", i + 1);
    if (opt.format == F_CSV)
      snprintf(c[2], 32, "%.1f", g[i].rate);
    else
      snprintf(c[2], 32, "%s/s", fmt_bytes(g[i].rate, b1));
    snprintf(c[3], 32, "%.3f", g[i].r2);
    snprintf(c[4], 32, "%.3f", g[i].monotonicity);
    table_row(t, NULL, c[0], c_bytes(g[i].score, c[1]), c[2], c[3], c[4],
              c_bytes(g[i].first, c[5]), c_bytes(g[i].last, c[6]),
              c_id(p->sites.v[g[i].site].id, c[7]),
              site_label(p, g[i].site, label, sizeof(label)));
  }
  free(g);
  return t;
}

/* ---- one site's series (--plot) ------------------------------------------------------ */
static struct table *plots(const struct profile *p) {
  static const char *head[] = {"site id", "time", "live bytes"};
  static const enum align al[] = {LEFT, RIGHT, RIGHT};
  struct table *t = new_table("Live bytes of a site over time", 3, head, al);
  for (size_t k = 0; k < opt.plots.n; k++) {
    uint32_t site = map_get(&p->site_index, opt.plots.v[k]);
    char c[3][32];
    if (site == NONE) {
      table_row(t, NULL, c_id(opt.plots.v[k], c[0]), "-", "no such site");
      continue;
    }
    struct series s;
    site_series(p, site, &s);
    for (size_t i = 0; i < s.n; i++)
      table_row(t, NULL, c_id(opt.plots.v[k], c[0]), c_time(s.t[i], c[1]),
                c_bytes(s.bytes[i], c[2]));
    series_free(&s);
  }
  return t;
}

struct table *build_report(const struct profile *p, enum report_kind kind) {
  switch (kind) {
  case R_GROWTH:
    return growth(p);
  case R_ALLOC_POINTS:
    return alloc_points(p);
  case R_DEALLOC_POINTS:
    return dealloc_points(p);
  case R_ALLOCATIONS:
    return allocations(p);
  case R_PERIODIC:
    return periodic(p);
  case R_TIME_SLICES:
    return time_slices(p);
  case R_DOUBLE_FREES:
    return double_frees(p);
  case R_PLOT:
    return plots(p);
  default:
    return NULL;
  }
}

/* ---- the diff of two snapshots ------------------------------------------------------- */
struct diff_row {
  uint64_t id;
  double a_bytes, a_blocks, b_bytes, b_blocks;
  const struct profile *p;
  uint32_t site;
};

static int by_change(const void *x, const void *y) {
  const struct diff_row *a = x, *b = y;
  double da = a->b_bytes - a->a_bytes, db = b->b_bytes - b->a_bytes;
  if (da != db)
    return da < db ? 1 : -1;
  return a->id < b->id ? -1 : a->id > b->id;
}

static void diff_add(struct map *m, VEC(struct diff_row) * rows,
                     const struct profile *p, const struct snapshot *sn,
                     bool second) {
  for (uint32_t k = 0; k < sn->n; k++) {
    const struct block *b = &p->blocks.v[sn->first + k];
    if (!p->sites.v[b->site].kept)
      continue;
    uint64_t id = p->sites.v[b->site].id;
    uint32_t i = map_get(m, id);
    if (i == NONE) {
      struct diff_row *r = vec_push(rows);
      r->id = id;
      r->p = p;
      r->site = b->site;
      i = (uint32_t)(rows->n - 1);
      map_put(m, id, i);
    }
    double by, bl;
    block_weight(p, b, &by, &bl);
    if (second) {
      rows->v[i].b_bytes += by;
      rows->v[i].b_blocks += bl;
    } else {
      rows->v[i].a_bytes += by;
      rows->v[i].a_blocks += bl;
    }
  }
}

struct table *build_diff(const struct profile *pa, const struct snapshot *a,
                         const struct profile *pb, const struct snapshot *b) {
  static const char *head[] = {"rank", "change", "bytes before", "bytes after",
                               "blocks before", "blocks after", "site id",
                               "site"};
  static const enum align al[] = {RIGHT, RIGHT, RIGHT, RIGHT,
                                  RIGHT, RIGHT, LEFT,  LEFT};
  struct table *t = new_table("Snapshot diff", 8, head, al);
  struct map m = {0};
  VEC(struct diff_row) rows = {0};
  diff_add(&m, (void *)&rows, pa, a, false);
  diff_add(&m, (void *)&rows, pb, b, true);
  qsort(rows.v, rows.n, sizeof(*rows.v), by_change);
  double ta = 0, tb = 0, changed = 0;
  for (size_t i = 0; i < rows.n; i++) {
    ta += rows.v[i].a_bytes;
    tb += rows.v[i].b_bytes;
    changed += fabs(rows.v[i].b_bytes - rows.v[i].a_bytes);
  }
  char b1[32], b2[32], t1[32], t2[32];
  t->note = xasprintf("snapshot %lu '%s' (%s, %s) -> snapshot %lu '%s' "
                      "(%s, %s): %s -> %s",
                      (unsigned long)a->number, a->label ? a->label : "",
                      fmt_time(a->time, t1), pa->path,
                      (unsigned long)b->number, b->label ? b->label : "",
                      fmt_time(b->time, t2), pb->path, fmt_bytes(ta, b1),
                      fmt_bytes(tb, b2));
  size_t rank = 0;
  for (size_t i = 0; i < rows.n; i++) {
    struct diff_row *r = &rows.v[i];
    double change = r->b_bytes - r->a_bytes;
    if (change == 0 && r->a_blocks == r->b_blocks)
      continue;
    if (!shown(rank++, change, changed))
      continue;
    char c[7][32], label[1024], ch[32];
    snprintf(c[0], 32, "%zu", rank);
    if (opt.format == F_CSV)
      snprintf(ch, 32, "%.0f", change);
    else
      snprintf(ch, 32, "%s%s", change > 0 ? "+" : "", fmt_bytes(change, c[6]));
    table_row(t, NULL, c[0], ch, c_bytes(r->a_bytes, c[1]),
              c_bytes(r->b_bytes, c[2]), c_count(r->a_blocks, c[3]),
              c_count(r->b_blocks, c[4]), c_id(r->id, c[5]),
              site_label(r->p, r->site, label, sizeof(label)));
  }
  map_free(&m);
  free(rows.v);
  return t;
}

/* ---- text and CSV ------------------------------------------------------------------- */

void put_escaped(FILE *out, const char *s) {
  char *e = text_escape(s);
  fputs(e, out);
  free(e);
}

static size_t text_width(const char *s) {
  size_t n = 0;
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\\' || c == '\n' || c == '\t' || c == '\r')
      n += 2;
    else if (c < 0x20 || c == 0x7f)
      n += 4;
    else if ((c & 0xc0) != 0x80)
      n++;
  }
  return n;
}

void print_table_text(FILE *out, const struct table *t) {
  fprintf(out, "%s\n", t->title);
  for (size_t i = strlen(t->title); i > 0; i--)
    fputc('=', out);
  fputc('\n', out);
  if (t->note) {
    put_escaped(out, t->note);
    fputc('\n', out);
  }
  size_t rows = table_rows(t);
  if (!rows) {
    fprintf(out, "(nothing to report)\n\n");
    return;
  }
  size_t *w = xcalloc(t->ncols, sizeof(size_t));
  for (size_t c = 0; c < t->ncols; c++)
    w[c] = strlen(t->head[c]);
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < t->ncols; c++) {
      size_t n = text_width(t->cells.v[r * t->ncols + c]);
      if (n > w[c])
        w[c] = n;
    }
  for (size_t r = 0; r <= rows; r++) {
    for (size_t c = 0; c < t->ncols; c++) {
      const char *s = r == 0 ? t->head[c] : t->cells.v[(r - 1) * t->ncols + c];
      size_t pad = w[c] - text_width(s);
      bool last = c + 1 == t->ncols;
      if (t->align[c] == RIGHT)
        fprintf(out, "%*s", (int)pad, "");
      put_escaped(out, s);
      if (!last)
        fprintf(out, "%*s  ", (int)(t->align[c] == LEFT ? pad : 0), "");
    }
    fputc('\n', out);
    const char *d = r > 0 ? t->details.v[r - 1] : NULL;
    while (d && *d) {
      const char *nl = strchr(d, '\n');
      size_t n = nl ? (size_t)(nl - d) : strlen(d);
      char *line = xstrndup(d, n);
      fprintf(out, "      %s", line); /* escaped already */
      fputc('\n', out);
      free(line);
      d = nl ? nl + 1 : NULL;
    }
  }
  fputc('\n', out);
  free(w);
}

/* A CSV field (RFC 4180): text from the input escaped as everywhere (no
 * control byte, no line break inside a field), then quoted if it holds a
 * comma or a quote, quotes doubled. */
static void csv_cell(FILE *out, const char *raw, bool escaped) {
  char *s = escaped ? xstrdup(raw) : text_escape(raw);
  if (!strpbrk(s, ",\"")) {
    fputs(s, out);
    free(s);
    return;
  }
  fputc('"', out);
  for (const char *c = s; *c; c++) {
    if (*c == '"')
      fputc('"', out);
    fputc(*c, out);
  }
  fputc('"', out);
  free(s);
}

void print_table_csv(FILE *out, const struct table *t, bool named) {
  if (named)
    fprintf(out, "# %s\n", t->title);
  bool stacks = false;
  for (size_t r = 0; r < table_rows(t); r++)
    stacks |= t->details.v[r] != NULL;
  for (size_t c = 0; c < t->ncols; c++) {
    if (c)
      fputc(',', out);
    csv_cell(out, t->head[c], false);
  }
  fputs(stacks ? ",stack\n" : "\n", out);
  for (size_t r = 0; r < table_rows(t); r++) {
    for (size_t c = 0; c < t->ncols; c++) {
      if (c)
        fputc(',', out);
      csv_cell(out, t->cells.v[r * t->ncols + c], false);
    }
    if (stacks) {
      fputc(',', out);
      char *d = xstrdup(t->details.v[r] ? t->details.v[r] : "");
      for (char *c = d; *c; c++)
        if (*c == '\n')
          *c = ';';
      csv_cell(out, d, true);
      free(d);
    }
    fputc('\n', out);
  }
  if (named)
    fputc('\n', out);
}

/* ---- folded stacks ------------------------------------------------------------------ */
struct folded {
  char *line;
  double value;
};

static int by_line(const void *a, const void *b) {
  return strcmp(((const struct folded *)a)->line,
                ((const struct folded *)b)->line);
}

/* A frame name safe in a folded line: no ';', no newline. */
static void folded_name(char *s) {
  for (; *s; s++)
    if (*s == ';' || *s == '\n' || *s == '\r')
      *s = ':';
}

void print_folded(FILE *out, const struct profile *p) {
  const struct snapshot *sn = find_snapshot(p, opt.snapshot);
  VEC(struct folded) v = {0};
  if (sn) {
    for (uint32_t k = 0; k < sn->n; k++) {
      const struct block *b = &p->blocks.v[sn->first + k];
      if (!p->sites.v[b->site].kept)
        continue;
      const struct stack *st = stack_of(p, b->stack);
      size_t cap = 256, len = 0;
      char *line = xmalloc(cap);
      line[0] = '\0';
      for (uint32_t i = st ? st->n : 0; i-- > 0;) {
        char fb[512];
        const struct frame *f = &p->frames.v[st->first + i];
        const char *function = frame_function(p, f);
        if (function) /* flame graphs merge frames by function */
          snprintf(fb, sizeof(fb), "%s", function);
        else
          frame_label(p, f, fb, sizeof(fb));
        folded_name(fb);
        if (len + strlen(fb) + 2 > cap)
          line = xrealloc(line, cap = (len + strlen(fb) + 2) * 2);
        len += (size_t)sprintf(line + len, "%s;", fb);
      }
      char lb[1024];
      site_label(p, b->site, lb, sizeof(lb));
      folded_name(lb);
      if (len + strlen(lb) + 1 > cap)
        line = xrealloc(line, len + strlen(lb) + 1);
      strcpy(line + len, lb);
      double by, bl;
      block_weight(p, b, &by, &bl);
      *vec_push(&v) = (struct folded){line, by};
    }
  } else if (p->totals.n) {
    const struct totals *t = &p->totals.v[p->totals.n - 1];
    for (uint32_t k = 0; k < t->n; k++) {
      const struct site_row *r = &p->rows.v[t->first + k];
      if (!p->sites.v[r->site].kept || !r->live_bytes)
        continue;
      char lb[1024];
      site_label(p, r->site, lb, sizeof(lb));
      folded_name(lb);
      *vec_push(&v) = (struct folded){xstrdup(lb), (double)r->live_bytes};
    }
  }
  qsort(v.v, v.n, sizeof(*v.v), by_line);
  for (size_t i = 0; i < v.n;) {
    double sum = 0;
    size_t j = i;
    while (j < v.n && strcmp(v.v[j].line, v.v[i].line) == 0)
      sum += v.v[j++].value;
    long long value = llround(sum);
    if (value > 0) {
      put_escaped(out, v.v[i].line);
      fprintf(out, " %lld\n", value);
    }
    for (; i < j; i++)
      free(v.v[i].line);
  }
  free(v.v);
}
