/* read_records.c - reads a record_allocs file (runtime/src/record.c's
 * lines, malloc debug's format: `TID: malloc PTR SIZE START END`, ...) by
 * replaying it: the live blocks it implies give periodic totals (100 points
 * over the recorded span), the frees give deallocation points, a free of a
 * block already freed is a double free, and what is still live at the end
 * is a snapshot. Records carry no call site, so blocks are grouped by call
 * and size: "malloc (48-byte blocks)" is one allocation point. Times are
 * the calls' start times, from the first record.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define POINTS 100

struct live_block {
  uint32_t site, tid;
  uint64_t size, time, ptr;
  bool freed;
};

struct replay {
  struct profile *p;
  VEC(struct live_block) blocks;
  struct map by_ptr; /* ptr -> the latest block at it */
  uint64_t *live_blocks, *live_bytes, *allocs, *frees, *bytes, *peak;
  size_t nsites_cap;
  uint64_t t0, next_point, step, points;
  uint64_t total_bytes; /* every size allocated: bounds every other sum */
  uint32_t free_site;
};

static uint32_t pseudo_site(struct profile *p, const char *op, uint64_t size) {
  uint64_t id = hash_bytes(0xcbf29ce484222325ull, op, strlen(op));
  id = hash_bytes(id, &size, sizeof(size));
  uint32_t s = site_ref(p, id);
  struct site *st = &p->sites.v[s];
  if (!st->defined) {
    st->defined = true;
    st->op = op;
    st->function = strcmp(op, "free") == 0
                       ? xstrdup("any block")
                       : xasprintf("%lu-byte blocks", (unsigned long)size);
  }
  return s;
}

static void counters_fit(struct replay *r) {
  size_t need = r->p->sites.n;
  if (need <= r->nsites_cap)
    return;
  size_t cap = need * 2;
  uint64_t **arrays[] = {&r->live_blocks, &r->live_bytes, &r->allocs,
                         &r->frees, &r->bytes, &r->peak};
  for (size_t i = 0; i < 6; i++) {
    *arrays[i] = xrealloc(*arrays[i], cap * sizeof(uint64_t));
    memset(*arrays[i] + r->nsites_cap, 0,
           (cap - r->nsites_cap) * sizeof(uint64_t));
  }
  r->nsites_cap = cap;
}

static void emit_totals(struct replay *r, uint64_t time) {
  struct profile *p = r->p;
  struct totals *t = vec_push(&p->totals);
  t->time = time;
  t->first = (uint32_t)p->rows.n;
  for (size_t s = 0; s < p->sites.n && s < r->nsites_cap; s++) {
    if (!r->allocs[s])
      continue;
    *vec_push(&p->rows) = (struct site_row){
        (uint32_t)s, r->live_blocks[s], r->live_bytes[s], r->allocs[s],
        r->frees[s], r->bytes[s], r->peak[s]};
    t->live_bytes += r->live_bytes[s];
    t->live_blocks += r->live_blocks[s];
    t->allocs += r->allocs[s];
    t->frees += r->frees[s];
    t->bytes += r->bytes[s];
    t->n++;
  }
  t->expected = t->n;
}

static void advance(struct replay *r, uint64_t t) {
  /* At most POINTS points, and next_point never wraps. */
  while (r->points < POINTS && t >= r->next_point) {
    emit_totals(r, r->next_point);
    r->points++;
    if (r->next_point > UINT64_MAX - r->step)
      r->points = POINTS;
    else
      r->next_point += r->step;
  }
}

static void do_alloc(struct replay *r, const char *op, uint64_t ptr,
                     uint64_t size, uint64_t t, uint32_t tid) {
  if (!ptr)
    return;
  uint32_t site = pseudo_site(r->p, op, size);
  counters_fit(r);
  *vec_push(&r->blocks) = (struct live_block){site, tid, size, t, ptr, false};
  map_put(&r->by_ptr, ptr, (uint32_t)(r->blocks.n - 1));
  r->live_blocks[site]++;
  r->live_bytes[site] += size;
  r->allocs[site]++;
  r->bytes[site] += size;
  if (r->live_bytes[site] > r->peak[site])
    r->peak[site] = r->live_bytes[site];
}

static void do_free(struct replay *r, uint64_t ptr, uint64_t t, uint32_t tid) {
  uint32_t i = ptr ? map_get(&r->by_ptr, ptr) : NONE;
  if (i == NONE)
    return; /* allocated before the records began */
  struct live_block *b = &r->blocks.v[i];
  struct profile *p = r->p;
  if (b->freed) {
    *vec_push(&p->double_frees) = (struct double_free){
        t, ptr, b->size, b->site, r->free_site, r->free_site, NONE, tid};
    return;
  }
  b->freed = true;
  r->live_blocks[b->site]--;
  r->live_bytes[b->site] -= b->size;
  r->frees[b->site]++;
  *vec_push(&p->frees) = (struct free_event){
      t, b->size, b->time, b->site, NONE, r->free_site, NONE, tid};
}

static bool hexnum(const char **s, const char *e, uint64_t *v) {
  while (*s < e && **s == ' ')
    (*s)++;
  if (e - *s < 3 || (*s)[0] != '0' || (*s)[1] != 'x')
    return false;
  *s += 2;
  const char *start = *s;
  *v = 0;
  while (*s < e && **s != ' ') {
    char c = **s;
    int d = c >= '0' && c <= '9' ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0)
      return false;
    if (*v >> 60) /* more than 64 bits */
      return false;
    *v = *v << 4 | (uint64_t)d;
    (*s)++;
  }
  return *s > start;
}

static bool decnum(const char **s, const char *e, uint64_t *v) {
  while (*s < e && **s == ' ')
    (*s)++;
  const char *start = *s;
  *v = 0;
  while (*s < e && **s >= '0' && **s <= '9') {
    uint64_t d = (uint64_t)(**s - '0');
    if (*v > (UINT64_MAX - d) / 10) /* more than 64 bits */
      return false;
    *v = *v * 10 + d;
    (*s)++;
  }
  return *s > start && (*s == e || **s == ' ');
}

static bool word(const char **s, const char *e, const char *w) {
  while (*s < e && **s == ' ')
    (*s)++;
  size_t n = strlen(w);
  if ((size_t)(e - *s) < n || memcmp(*s, w, n) != 0 ||
      (*s + n < e && (*s)[n] != ' '))
    return false;
  *s += n;
  return true;
}

/* One line: fills the call; false if malformed. */
struct call {
  uint64_t tid, ptr, old, size, start, end;
  const char *op;
};

static bool parse_line(const char *s, const char *e, struct call *c) {
  memset(c, 0, sizeof(*c));
  const char *colon = memchr(s, ':', (size_t)(e - s));
  if (!colon || !decnum(&s, colon, &c->tid) || s != colon)
    return false;
  s = colon + 1;
  uint64_t a = 0, b = 0;
  if (word(&s, e, "malloc")) {
    c->op = "malloc";
    return hexnum(&s, e, &c->ptr) && decnum(&s, e, &c->size) &&
           decnum(&s, e, &c->start) && decnum(&s, e, &c->end) && s == e;
  }
  if (word(&s, e, "calloc")) {
    c->op = "calloc";
    bool ok = hexnum(&s, e, &c->ptr) && decnum(&s, e, &a) &&
              decnum(&s, e, &b) && decnum(&s, e, &c->start) &&
              decnum(&s, e, &c->end) && s == e;
    /* calloc's product, checked: a product past 64 bits is no size. */
    return ok && !__builtin_mul_overflow(a, b, &c->size);
  }
  if (word(&s, e, "memalign")) {
    c->op = "memalign";
    return hexnum(&s, e, &c->ptr) && decnum(&s, e, &a) &&
           decnum(&s, e, &c->size) && decnum(&s, e, &c->start) &&
           decnum(&s, e, &c->end) && s == e;
  }
  if (word(&s, e, "realloc")) {
    c->op = "realloc";
    return hexnum(&s, e, &c->ptr) && hexnum(&s, e, &c->old) &&
           decnum(&s, e, &c->size) && decnum(&s, e, &c->start) &&
           decnum(&s, e, &c->end) && s == e;
  }
  if (word(&s, e, "free")) {
    c->op = "free";
    return hexnum(&s, e, &c->ptr) && decnum(&s, e, &c->start) &&
           decnum(&s, e, &c->end) && s == e;
  }
  if (word(&s, e, "thread_done")) {
    c->op = "thread_done";
    bool ok = hexnum(&s, e, &c->ptr) && decnum(&s, e, &c->end) && s == e;
    c->start = c->end;
    return ok;
  }
  return false;
}

/* Record times are CLOCK_MONOTONIC nanoseconds: none reaches 2^62 (146
 * years of uptime), so a time past that is damage, and no sum of times
 * below can wrap. */
#define MAX_TIME_NS (1ull << 62)

static const char *check_call(const struct call *c) {
  if (c->start > MAX_TIME_NS || c->end > MAX_TIME_NS)
    return "a time past 2^62 ns (146 years)";
  return NULL;
}

/* Does the file look like records (its first line parses)? */
bool looks_like_records(const char *data, size_t size) {
  const char *nl = memchr(data, '\n', size);
  struct call c;
  return parse_line(data, nl ? nl : data + size, &c);
}

bool read_records(struct profile *p, const char *data, size_t size) {
  p->kind = "record_allocs";
  const char *end = data + size;
  /* First pass: the span, for the periodic points. */
  uint64_t t0 = UINT64_MAX, t1 = 0;
  for (const char *s = data; s < end;) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    if (!nl)
      break;
    struct call c;
    if (parse_line(s, nl, &c) && !check_call(&c)) {
      if (c.start < t0)
        t0 = c.start;
      if (c.start > t1)
        t1 = c.start;
    }
    s = nl + 1;
  }
  if (t0 == UINT64_MAX)
    t0 = t1 = 0;
  struct replay r = {.p = p};
  r.t0 = t0;
  r.step = (t1 - t0) / POINTS;
  if (r.step == 0)
    r.step = 1;
  r.next_point = r.step;
  r.free_site = pseudo_site(p, "free", 0);
  uint64_t line = 0;
  for (const char *s = data; s < end;) {
    line++;
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    uint64_t offset = (uint64_t)(s - data);
    if (!nl) {
      input_error(p, line, offset, "truncated record (the file ends inside it)");
      break;
    }
    struct call c;
    if (!parse_line(s, nl, &c)) {
      input_error(p, line, offset, "malformed record_allocs line");
      s = nl + 1;
      continue;
    }
    s = nl + 1;
    const char *why = check_call(&c);
    if (!why && c.ptr && strcmp(c.op, "free") != 0 &&
        strcmp(c.op, "thread_done") != 0 &&
        __builtin_add_overflow(r.total_bytes, c.size, &r.total_bytes))
      why = "sizes that add up past 2^64 bytes";
    if (why) {
      input_error(p, line, offset, "record_allocs line with %s: rejected", why);
      continue;
    }
    p->records++;
    uint64_t t = c.start - t0;
    advance(&r, t);
    uint32_t tid = (uint32_t)c.tid;
    if (strcmp(c.op, "free") == 0) {
      do_free(&r, c.ptr, t, tid);
    } else if (strcmp(c.op, "realloc") == 0) {
      if (c.old)
        do_free(&r, c.old, t, tid);
      do_alloc(&r, "realloc", c.ptr, c.size, t, tid);
    } else if (strcmp(c.op, "thread_done") != 0) {
      do_alloc(&r, c.op, c.ptr, c.size, t, tid);
    }
  }
  p->end_time = t1 - t0;
  p->has_end = true;
  counters_fit(&r);
  emit_totals(&r, p->end_time);
  /* What is still live at the end: a snapshot, exact. */
  struct snapshot *sn = vec_push(&p->snapshots);
  sn->label = xstrdup("end of records");
  sn->time = p->end_time;
  sn->first = (uint32_t)p->blocks.n;
  for (size_t i = 0; i < r.blocks.n; i++) {
    struct live_block *b = &r.blocks.v[i];
    if (!b->freed)
      *vec_push(&p->blocks) =
          (struct block){b->site, NONE, b->tid, b->size, b->time, b->ptr, 1};
  }
  sn = &p->snapshots.v[p->snapshots.n - 1];
  sn->n = sn->expected = (uint32_t)(p->blocks.n - sn->first);
  free(r.blocks.v);
  map_free(&r.by_ptr);
  free(r.live_blocks);
  free(r.live_bytes);
  free(r.allocs);
  free(r.frees);
  free(r.bytes);
  free(r.peak);
  return true;
}
