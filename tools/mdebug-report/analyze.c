/* analyze.c - the model's helpers and what the reports compute from it:
 * sampling weights (unbiased estimates), the filters and the time window,
 * site and frame names, the live-bytes series of a site, and the growth
 * analysis (docs/mdebug-report.md, "Growth score"). Reads the model, never
 * prints.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* ---- model helpers --------------------------------------------------------- */

uint32_t site_ref(struct profile *p, uint64_t id) {
  uint32_t i = map_get(&p->site_index, id);
  if (i != NONE)
    return i;
  struct site *s = vec_push(&p->sites);
  s->id = id;
  s->module = NONE;
  s->kept = true;
  i = (uint32_t)(p->sites.n - 1);
  map_put(&p->site_index, id, i);
  return i;
}

uint32_t stack_ref(struct profile *p, uint32_t id) {
  uint32_t i = map_get(&p->stack_index, id);
  if (i != NONE)
    return i;
  struct stack *s = vec_push(&p->stacks);
  s->id = id;
  i = (uint32_t)(p->stacks.n - 1);
  map_put(&p->stack_index, id, i);
  return i;
}

uint32_t module_ref(struct profile *p, const char *path) {
  for (size_t i = 0; i < p->modules.n; i++)
    if (p->modules.v[i] && strcmp(p->modules.v[i], path) == 0)
      return (uint32_t)i;
  *vec_push(&p->modules) = xstrdup(path);
  return (uint32_t)(p->modules.n - 1);
}

static uint64_t symbol_key(uint32_t module, uint64_t offset) {
  return hash_bytes(hash_bytes(0xcbf29ce484222325ull, &module, 4), &offset, 8);
}

void symbol_put(struct profile *p, uint32_t module, uint64_t offset,
                const char *function, uint64_t function_offset) {
  *vec_push(&p->symbols) = (struct symbol){function, function_offset};
  map_put(&p->symbol_index, symbol_key(module, offset),
          (uint32_t)(p->symbols.n - 1));
}

const struct symbol *symbol_get(const struct profile *p, uint32_t module,
                                uint64_t offset) {
  uint32_t i = map_get(&p->symbol_index, symbol_key(module, offset));
  return i == NONE ? NULL : &p->symbols.v[i];
}

const char *module_name(const struct profile *p, uint32_t module) {
  if (module < p->modules.n && p->modules.v[module])
    return p->modules.v[module];
  return "?";
}

static const char *label(const struct profile *p, uint32_t module,
                         uint64_t offset, const char *known, char *buf,
                         size_t size);

/* Where the site is, without its type. */
static void site_place(const struct profile *p, const struct site *s,
                       char *buf, size_t size) {
  const char *op = s->op ? s->op : "allocated";
  const char *at = " at ";
  if (s->file && s->line)
    snprintf(buf, size, "%s%s%s:%u:%u (%s)", op, at, s->file, s->line,
             s->column, s->function ? s->function : "?");
  else if (s->file)
    snprintf(buf, size, "%s%s%s (%s)", op, at, s->file,
             s->function ? s->function : "?");
  else if (s->module != NONE) {
    char fb[1024];
    label(p, s->module, s->offset, s->function, fb, sizeof(fb));
    snprintf(buf, size, "%s%s%s", op, at, fb);
  }
  else if (s->function)
    snprintf(buf, size, "%s (%s)", op, s->function);
  else if (s->offset)
    snprintf(buf, size, "%s at pc 0x%lx", op, (unsigned long)s->offset);
  else
    snprintf(buf, size, "site %016lx (not described in the file)",
             (unsigned long)s->id);
}

const char *site_label(const struct profile *p, uint32_t site, char *buf,
                       size_t size) {
  const struct site *s = &p->sites.v[site];
  site_place(p, s, buf, size);
  size_t n = strlen(buf);
  if (s->type && n + 1 < size)
    snprintf(buf + n, size - n, " as %s", s->type);
  return buf;
}

/* What the symbolizer says of (module, offset), unless it contradicts the
 * name the file gives (`known`, the runtime's symbol-table name): then the
 * module file here is not the one that ran (another build, another
 * machine's libc), and its lines would be wrong. Mangled names are not
 * compared (the symbolizer's are demangled). */
static const struct source *trusted(const struct profile *p, uint32_t module,
                                    uint64_t offset, const char *known) {
  const struct source *src = source_get(p, module, offset);
  if (!src || !src->function || !known || strncmp(known, "_Z", 2) == 0)
    return src;
  return strcmp(src->function, known) == 0 ? src : NULL;
}

static const char *file_name(const struct profile *p, uint32_t module,
                             uint64_t offset, const char *known) {
  const struct symbol *sym = symbol_get(p, module, offset);
  return sym && sym->function ? sym->function : known;
}

/* The function at (module, offset): the symbolizer's (demangled), else the
 * file's symbol, else `known` (a return-address site's own name). */
static const char *function_at(const struct profile *p, uint32_t module,
                               uint64_t offset, const char *known) {
  const char *name = file_name(p, module, offset, known);
  const struct source *src = trusted(p, module, offset, name);
  return src && src->function ? src->function : name;
}

const char *frame_function(const struct profile *p, const struct frame *f) {
  return function_at(p, f->module, f->offset, NULL);
}

static const char *label(const struct profile *p, uint32_t module,
                         uint64_t offset, const char *known, char *buf,
                         size_t size) {
  if (module == NONE) {
    snprintf(buf, size, "pc 0x%lx <unknown>", (unsigned long)offset);
    return buf;
  }
  const struct source *src =
      trusted(p, module, offset, file_name(p, module, offset, known));
  const struct symbol *sym = symbol_get(p, module, offset);
  const char *function = function_at(p, module, offset, known);
  int n = snprintf(buf, size, "pc 0x%lx ", (unsigned long)offset);
  if (function && src && src->file && src->column)
    n += snprintf(buf + n, size - (size_t)n, "in %s %s:%u:%u ", function,
                  src->file, src->line, src->column);
  else if (function && src && src->file)
    n += snprintf(buf + n, size - (size_t)n, "in %s %s:%u ", function,
                  src->file, src->line);
  else if (function && sym && sym->function)
    n += snprintf(buf + n, size - (size_t)n, "in %s+0x%lx ", function,
                  (unsigned long)sym->function_offset);
  else if (function)
    n += snprintf(buf + n, size - (size_t)n, "in %s ", function);
  if (n >= 0 && (size_t)n < size)
    snprintf(buf + n, size - (size_t)n, "(%s)", module_name(p, module));
  return buf;
}

const char *frame_label(const struct profile *p, const struct frame *f,
                        char *buf, size_t size) {
  return label(p, f->module, f->offset, NULL, buf, size);
}

const struct stack *stack_of(const struct profile *p, uint32_t stack) {
  return stack == NONE || stack >= p->stacks.n ? NULL : &p->stacks.v[stack];
}

const struct snapshot *find_snapshot(const struct profile *p, const char *sel) {
  if (!p->snapshots.n)
    return NULL;
  if (!sel || strcmp(sel, "last") == 0)
    return &p->snapshots.v[p->snapshots.n - 1];
  if (strcmp(sel, "first") == 0)
    return &p->snapshots.v[0];
  if (sel[0] == '#') {
    char *end;
    unsigned long n = strtoul(sel + 1, &end, 10);
    if (*end == '\0' && end != sel + 1)
      for (size_t i = 0; i < p->snapshots.n; i++)
        if (p->snapshots.v[i].number == n)
          return &p->snapshots.v[i];
    return NULL;
  }
  for (size_t i = 0; i < p->snapshots.n; i++)
    if (p->snapshots.v[i].label && strcmp(p->snapshots.v[i].label, sel) == 0)
      return &p->snapshots.v[i];
  return NULL;
}

/* ---- sampling weights ---------------------------------------------------- */

void block_weight(const struct profile *p, const struct block *b,
                  double *bytes, double *blocks) {
  if (b->count) { /* exact: heap dumps, records */
    *bytes = (double)b->size * (double)b->count;
    *blocks = (double)b->count;
    return;
  }
  /* The sampling in force when the block was allocated: the last P record
   * at or before its time (records are in time order). */
  uint64_t rate = 1, sbytes = 0;
  for (size_t i = 0; i < p->samplings.n; i++) {
    if (i > 0 && p->samplings.v[i].time > b->time)
      break;
    rate = p->samplings.v[i].rate;
    sbytes = p->samplings.v[i].bytes;
  }
  /* Blocks over track_max_size (the last L record at or before the
   * block's time) were all tracked. */
  uint64_t always_above = 0;
  for (size_t i = 0; i < p->limits.n; i++) {
    if (i > 0 && p->limits.v[i].time > b->time)
      break;
    always_above = p->limits.v[i].max_size;
  }
  double prob = 1.0 / (double)(rate ? rate : 1);
  if (sbytes && b->size)
    prob *= -expm1(-(double)b->size / (double)sbytes);
  if (always_above && b->size > always_above)
    prob = 1;
  if (prob <= 0)
    prob = 1;
  *bytes = (double)b->size / prob;
  *blocks = 1.0 / prob;
}

/* ---- filters and the window ---------------------------------------------- */

static bool any_match(const void *vec, const char *text) {
  const VEC(const char *) *v = vec;
  for (size_t i = 0; i < v->n; i++)
    if (pattern_match(v->v[i], text))
      return true;
  return false;
}

static bool site_passes(const struct profile *p, const struct site *s) {
  const char *module = s->module != NONE ? module_name(p, s->module) : "";
  bool any_keep = opt.keep_function.n || opt.keep_file.n || opt.keep_module.n;
  if (any_keep && !any_match(&opt.keep_function, s->function) &&
      !any_match(&opt.keep_file, s->file) &&
      !any_match(&opt.keep_module, module))
    return false;
  if (any_match(&opt.drop_function, s->function) ||
      any_match(&opt.drop_file, s->file) ||
      any_match(&opt.drop_module, module))
    return false;
  return true;
}

static bool in_window(uint64_t t) {
  return (!opt.has_start || t >= opt.start) && (!opt.has_stop || t <= opt.stop);
}

void apply_filters_and_window(struct profile *p) {
  for (size_t i = 0; i < p->sites.n; i++)
    p->sites.v[i].kept = site_passes(p, &p->sites.v[i]);
  if (!opt.has_start && !opt.has_stop)
    return;
  size_t out = 0;
  for (size_t i = 0; i < p->totals.n; i++)
    if (in_window(p->totals.v[i].time))
      p->totals.v[out++] = p->totals.v[i];
  p->totals.n = out;
  out = 0;
  for (size_t i = 0; i < p->snapshots.n; i++) {
    struct snapshot sn = p->snapshots.v[i];
    if (!in_window(sn.time))
      continue;
    /* Only blocks allocated inside the window (memstat's StartTime). */
    uint32_t kept = 0;
    for (uint32_t k = 0; k < sn.n; k++) {
      struct block b = p->blocks.v[sn.first + k];
      if (b.count || in_window(b.time))
        p->blocks.v[sn.first + kept++] = b;
    }
    sn.n = kept;
    p->snapshots.v[out++] = sn;
  }
  p->snapshots.n = out;
  out = 0;
  for (size_t i = 0; i < p->frees.n; i++)
    if (in_window(p->frees.v[i].time))
      p->frees.v[out++] = p->frees.v[i];
  p->frees.n = out;
  out = 0;
  for (size_t i = 0; i < p->double_frees.n; i++)
    if (in_window(p->double_frees.v[i].time))
      p->double_frees.v[out++] = p->double_frees.v[i];
  p->double_frees.n = out;
}

/* ---- series --------------------------------------------------------------- */

void series_free(struct series *s) {
  free(s->t);
  free(s->bytes);
  memset(s, 0, sizeof(*s));
}

void site_series(const struct profile *p, uint32_t site, struct series *s) {
  memset(s, 0, sizeof(*s));
  if (p->totals.n >= 2) {
    s->exact = true;
    s->n = p->totals.n;
    s->t = xmalloc(s->n * sizeof(*s->t));
    s->bytes = xcalloc(s->n, sizeof(*s->bytes));
    for (size_t i = 0; i < p->totals.n; i++) {
      const struct totals *t = &p->totals.v[i];
      s->t[i] = t->time;
      for (uint32_t k = 0; k < t->n; k++) {
        const struct site_row *r = &p->rows.v[t->first + k];
        if (site == NONE ? p->sites.v[r->site].kept : r->site == site)
          s->bytes[i] += (double)r->live_bytes;
      }
    }
    return;
  }
  s->n = p->snapshots.n;
  s->t = xmalloc((s->n ? s->n : 1) * sizeof(*s->t));
  s->bytes = xcalloc(s->n, sizeof(*s->bytes));
  for (size_t i = 0; i < p->snapshots.n; i++) {
    const struct snapshot *sn = &p->snapshots.v[i];
    s->t[i] = sn->time;
    for (uint32_t k = 0; k < sn->n; k++) {
      const struct block *b = &p->blocks.v[sn->first + k];
      if (site == NONE ? p->sites.v[b->site].kept : b->site == site) {
        double by, bl;
        block_weight(p, b, &by, &bl);
        s->bytes[i] += by;
      }
    }
  }
}

/* ---- growth ------------------------------------------------------------------
 * For each site, over the points after the warm-up: the least-squares line
 * of live bytes against time (slope = growth rate), its coefficient of
 * determination R^2 (how well a line explains the points), and the
 * monotonicity M = (sum of rises - sum of falls) / (sum of rises + sum of
 * falls) (1 for a series that only grows, about 0 for one that goes up and
 * down as much, 1/(2k-1) for a sawtooth of k teeth). The score is the
 * fitted growth across the window, in bytes, times R^2 times M (0 when the
 * slope or M is not positive): a steady leak keeps nearly all of its
 * growth, a bounded noisy site keeps almost nothing.
 */

static int by_score(const void *a, const void *b) {
  const struct growth *x = a, *y = b;
  if (x->score != y->score)
    return x->score < y->score ? 1 : -1;
  if (x->rate != y->rate)
    return x->rate < y->rate ? 1 : -1;
  return x->site < y->site ? -1 : x->site > y->site;
}

static void fit(const uint64_t *t, const double *y, size_t n,
                struct growth *g) {
  g->points = n;
  if (n < 3)
    return;
  double mt = 0, my = 0;
  for (size_t i = 0; i < n; i++) {
    mt += (double)t[i];
    my += y[i];
  }
  mt /= (double)n;
  my /= (double)n;
  double stt = 0, sty = 0, syy = 0, up = 0, down = 0;
  for (size_t i = 0; i < n; i++) {
    double dt = (double)t[i] - mt, dy = y[i] - my;
    stt += dt * dt;
    sty += dt * dy;
    syy += dy * dy;
    if (i > 0) {
      double d = y[i] - y[i - 1];
      if (d > 0)
        up += d;
      else
        down -= d;
    }
  }
  g->first = y[0];
  g->last = y[n - 1];
  if (stt <= 0)
    return;
  double slope = sty / stt; /* bytes per ns */
  g->rate = slope * 1e9;
  g->r2 = syy > 0 ? (sty * sty) / (stt * syy) : 0;
  g->monotonicity = up + down > 0 ? (up - down) / (up + down) : 0;
  g->growth = slope * (double)(t[n - 1] - t[0]);
  if (slope > 0 && g->monotonicity > 0)
    g->score = g->growth * g->r2 * g->monotonicity;
  if (g->score < 1) /* less than a byte of steady growth: none */
    g->score = 0;
}

size_t growth_analysis(const struct profile *p, struct growth **out,
                       uint64_t *warmup_end, size_t *points) {
  *out = NULL;
  *points = 0;
  bool exact = p->totals.n >= 2;
  size_t npts = exact ? p->totals.n : p->snapshots.n;
  *warmup_end = 0;
  if (npts == 0)
    return 0;
  uint64_t t_first = exact ? p->totals.v[0].time : p->snapshots.v[0].time;
  uint64_t t_last = exact ? p->totals.v[npts - 1].time
                          : p->snapshots.v[npts - 1].time;
  uint64_t warm = opt.warmup_ns
                      ? opt.warmup_ns
                      : (uint64_t)((double)(t_last - t_first) *
                                   opt.warmup_percent / 100.0);
  *warmup_end = t_first + warm;
  /* The points after the warm-up: their index range. */
  size_t from = 0;
  while (from < npts &&
         (exact ? p->totals.v[from].time : p->snapshots.v[from].time) <
             *warmup_end)
    from++;
  size_t n = npts - from;
  *points = n;
  /* Live bytes of every site at every point: one pass over the rows. */
  double *y = xcalloc(p->sites.n * (n ? n : 1), sizeof(double));
  uint64_t *t = xmalloc((n ? n : 1) * sizeof(uint64_t));
  for (size_t i = 0; i < n; i++) {
    if (exact) {
      const struct totals *tt = &p->totals.v[from + i];
      t[i] = tt->time;
      for (uint32_t k = 0; k < tt->n; k++) {
        const struct site_row *r = &p->rows.v[tt->first + k];
        y[(size_t)r->site * n + i] += (double)r->live_bytes;
      }
    } else {
      const struct snapshot *sn = &p->snapshots.v[from + i];
      t[i] = sn->time;
      for (uint32_t k = 0; k < sn->n; k++) {
        const struct block *b = &p->blocks.v[sn->first + k];
        double by, bl;
        block_weight(p, b, &by, &bl);
        y[(size_t)b->site * n + i] += by;
      }
    }
  }
  struct growth *g = xcalloc(p->sites.n ? p->sites.n : 1, sizeof(*g));
  size_t count = 0;
  for (size_t s = 0; s < p->sites.n; s++) {
    if (!p->sites.v[s].kept)
      continue;
    struct growth one = {(uint32_t)s, 0, 0, 0, 0, 0, 0, 0, 0};
    fit(t, y + s * n, n, &one);
    bool active = false;
    for (size_t i = 0; i < n && !active; i++)
      active = y[s * n + i] != 0;
    if (one.score > 0 || (opt.show_zero_growth && active))
      g[count++] = one;
  }
  qsort(g, count, sizeof(*g), by_score);
  free(y);
  free(t);
  *out = g;
  return count;
}
