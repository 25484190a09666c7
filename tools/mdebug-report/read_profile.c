/* read_profile.c - reads a heap profile (.mdprof, docs/profile-format.md)
 * into the model: one line per record, each checked against its CRC-32C
 * before it is believed. A damaged line is reported with its line number
 * and byte offset and left out; reading goes on with the next line, so the
 * reports cover everything that was valid. A missing newline at the end is a
 * truncated record. This is the hot path for big profiles: no stdio, no
 * allocation per record except for strings, hardware CRC when the CPU has it.
 */
#include <stdlib.h>
#include <string.h>

#include "profile_format.h"
#include "report.h"

enum {
#define MD_PROFILE_RECORD(NAME, TAG, FIELDS) REC_##NAME,
#include "profile.def"
  REC_COUNT
};
static const char *const tags[REC_COUNT] = {
#define MD_PROFILE_RECORD(NAME, TAG, FIELDS) [REC_##NAME] = TAG,
#include "profile.def"
};
static const char *const field_lists[REC_COUNT] = {
#define MD_PROFILE_RECORD(NAME, TAG, FIELDS) [REC_##NAME] = FIELDS,
#include "profile.def"
};

/* ---- CRC-32C: the SSE4.2 instruction where the CPU has it ---------------- */
#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc_hw(const char *p,
                                                         size_t n) {
  uint64_t c = 0xffffffffu;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    c = __builtin_ia32_crc32di(c, w);
    p += 8;
    n -= 8;
  }
  uint32_t c32 = (uint32_t)c;
  while (n--)
    c32 = __builtin_ia32_crc32qi(c32, (unsigned char)*p++);
  return c32 ^ 0xffffffffu;
}
#endif

static uint32_t crc(const char *p, size_t n) {
#if defined(__x86_64__)
  /* MDEBUG_REPORT_SOFT_CRC: the table instead (to compare the two). */
  static int hw = -1;
  if (hw < 0)
    hw = __builtin_cpu_supports("sse4.2") && !getenv("MDEBUG_REPORT_SOFT_CRC");
  if (hw)
    return crc_hw(p, n);
#endif
  return md_crc32c(p, n);
}

/* ---- fields ---------------------------------------------------------------- */
#define MAX_FIELDS 16
struct fields {
  const char *s[MAX_FIELDS];
  size_t len[MAX_FIELDS];
  size_t n;
  bool bad;      /* a number did not parse */
  bool too_late; /* a time past MAX_TIME_NS */
};

/* Times in a profile are nanoseconds from its start: no run lasts 2^62 ns
 * (146 years), so a time past that is damage, rejected with its record,
 * and every sum of times the reports make stays far from wrapping. */
#define MAX_TIME_NS (1ull << 62)

static void split(const char *p, size_t n, struct fields *f) {
  f->n = 0;
  f->bad = f->too_late = false;
  const char *e = p + n;
  while (f->n < MAX_FIELDS) {
    const char *sp = memchr(p, ' ', (size_t)(e - p));
    const char *end = sp ? sp : e;
    f->s[f->n] = p;
    f->len[f->n++] = (size_t)(end - p);
    if (!sp)
      break;
    p = sp + 1;
  }
}

static uint64_t dec(struct fields *f, size_t k) {
  if (k >= f->n || f->len[k] == 0 || f->len[k] > 20) {
    f->bad = true;
    return 0;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < f->len[k]; i++) {
    unsigned d = (unsigned)(f->s[k][i] - '0');
    if (d > 9 || v > (UINT64_MAX - d) / 10) { /* not a digit, or > 2^64 */
      f->bad = true;
      return 0;
    }
    v = v * 10 + d;
  }
  return v;
}

/* A time field: dec, and at most MAX_TIME_NS. */
static uint64_t tim(struct fields *f, size_t k) {
  uint64_t v = dec(f, k);
  if (v > MAX_TIME_NS)
    f->too_late = f->bad = true;
  return v;
}

static uint64_t hex_span(const char *s, size_t n, bool *bad) {
  if (n == 0 || n > 16) {
    *bad = true;
    return 0;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    int d = hex_digit(s[i]);
    if (d < 0) {
      *bad = true;
      return 0;
    }
    v = v << 4 | (uint64_t)d;
  }
  return v;
}

static uint64_t hex(struct fields *f, size_t k) {
  if (k >= f->n) {
    f->bad = true;
    return 0;
  }
  return hex_span(f->s[k], f->len[k], &f->bad);
}

/* A string field, unescaped (NULL for "-"). */
const char *str_span(const char *s, size_t n, bool *bad) {
  if (n == 1 && s[0] == '-')
    return NULL;
  char *d = xmalloc(n + 1), *o = d;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '%') {
      int hi = i + 2 < n ? hex_digit(s[i + 1]) : -1;
      int lo = i + 2 < n ? hex_digit(s[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        *bad = true;
        break;
      }
      *o++ = (char)(hi << 4 | lo);
      i += 2;
    } else {
      *o++ = s[i];
    }
  }
  *o = '\0';
  return d;
}

static const char *str(struct fields *f, size_t k) {
  if (k >= f->n) {
    f->bad = true;
    return NULL;
  }
  return str_span(f->s[k], f->len[k], &f->bad);
}

/* ---- the reader ------------------------------------------------------------ */

struct reader {
  struct profile *p;
  uint64_t line, offset;
  struct totals *open_totals;     /* the last T, while its C rows come */
  struct snapshot *open_snapshot; /* the last A, while its B rows come */
  uint64_t group_line, group_offset; /* where the open group began */
};

/* Tag -> kind: one-letter tags through a table, longer ones by name. */
static signed char kind_by_letter[256];
static size_t field_count[REC_COUNT]; /* with the tag */

static void init_tables(void) {
  memset(kind_by_letter, -1, sizeof(kind_by_letter));
  for (int k = 0; k < REC_COUNT; k++) {
    if (tags[k][1] == '\0')
      kind_by_letter[(unsigned char)tags[k][0]] = (signed char)k;
    field_count[k] = 2;
    for (const char *c = field_lists[k]; *c; c++)
      field_count[k] += *c == ' ';
  }
}

static int kind_of(const char *s, size_t n) {
  if (n == 1)
    return kind_by_letter[(unsigned char)s[0]];
  for (int k = 0; k < REC_COUNT; k++)
    if (strlen(tags[k]) == n && memcmp(tags[k], s, n) == 0)
      return k;
  return -1;
}

static size_t nfields(int kind) { return field_count[kind]; }

/* Groups announce their size: say so when one ended short. */
static void close_groups(struct reader *r) {
  struct profile *p = r->p;
  if (r->open_totals && r->open_totals->n < r->open_totals->expected) {
    char tb[32];
    input_error(p, r->group_line, r->group_offset,
                "periodic totals at %s have %u of their %u site records",
                fmt_time(r->open_totals->time, tb), r->open_totals->n,
                r->open_totals->expected);
  }
  if (r->open_snapshot && r->open_snapshot->n < r->open_snapshot->expected)
    input_error(p, r->group_line, r->group_offset,
                "snapshot %lu has %u of its %u blocks",
                (unsigned long)r->open_snapshot->number, r->open_snapshot->n,
                r->open_snapshot->expected);
  r->open_totals = NULL;
  r->open_snapshot = NULL;
}

static void header(struct reader *r, const char *s, size_t n) {
  struct profile *p = r->p;
  bool bad = false;
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    while (j < n && s[j] != ' ')
      j++;
    const char *eq = memchr(s + i, '=', j - i);
    if (eq) {
      size_t klen = (size_t)(eq - (s + i));
      const char *v = eq + 1;
      size_t vlen = (size_t)(s + j - v);
      char num[24] = "";
      if (vlen < sizeof(num))
        memcpy(num, v, vlen);
      if (klen == 3 && memcmp(s + i, "pid", 3) == 0)
        p->pid = (int)strtol(num, NULL, 10);
      else if (klen == 5 && memcmp(s + i, "start", 5) == 0)
        p->start_unix_ns = strtoull(num, NULL, 10);
      else if (klen == 7 && memcmp(s + i, "program", 7) == 0)
        p->program = str_span(v, vlen, &bad);
      else if (klen == 7 && memcmp(s + i, "options", 7) == 0)
        p->options = str_span(v, vlen, &bad);
    }
    i = j + 1;
  }
  if (bad)
    input_error(p, r->line, r->offset, "malformed header record");
}

static void record(struct reader *r, const char *s, size_t n) {
  struct profile *p = r->p;
  struct fields f;
  split(s, n, &f);
  int kind = kind_of(f.s[0], f.len[0]);
  if (kind < 0) {
    p->unknown_records++;
    return;
  }
  if (kind == REC_HEADER) {
    header(r, s + f.len[0], n - f.len[0]);
    p->records++;
    return;
  }
  if (kind != REC_STACK && f.n < nfields(kind)) {
    input_error(p, r->line, r->offset,
                "malformed %s record: %zu fields, expected %zu (%s)",
                tags[kind], f.n - 1, nfields(kind) - 1, field_lists[kind]);
    return;
  }
  if (kind != REC_BLOCK && kind != REC_SITE_TOTALS)
    close_groups(r);
  switch (kind) {
  case REC_MAGIC:
    input_error(p, r->line, r->offset, "a second MDPROF line");
    return;
  case REC_SAMPLING: {
    struct sampling sm = {tim(&f, 1), dec(&f, 2), dec(&f, 3)};
    if (f.bad)
      break;
    if (!sm.rate)
      sm.rate = 1;
    *vec_push(&p->samplings) = sm;
    break;
  }
  case REC_LIMITS: {
    struct limits l = {tim(&f, 1), dec(&f, 3), dec(&f, 4), dec(&f, 5),
                       dec(&f, 6), dec(&f, 7), dec(&f, 2) != 0};
    if (f.bad)
      break;
    *vec_push(&p->limits) = l;
    break;
  }
  case REC_MODULE: {
    uint64_t m = dec(&f, 1);
    const char *path = str(&f, 2);
    if (f.bad || m > 1000000)
      break;
    while (p->modules.n <= m)
      *vec_push(&p->modules) = NULL;
    p->modules.v[m] = path;
    break;
  }
  case REC_SITE: {
    uint64_t id = hex(&f, 1);
    struct site d = {id, str(&f, 2), str(&f, 3), str(&f, 6), str(&f, 7),
                     (uint32_t)dec(&f, 4), (uint32_t)dec(&f, 5), NONE, 0,
                     true, true};
    if (!(f.len[8] == 1 && f.s[8][0] == '-')) {
      d.module = (uint32_t)dec(&f, 8);
      d.offset = hex(&f, 9);
    }
    if (f.bad)
      break;
    uint32_t at = site_ref(p, id);
    p->sites.v[at] = d;
    break;
  }
  case REC_STACK: {
    /* Variable length: split again without the field cap. */
    const char *c = s + f.len[0] + 1;
    const char *e = s + n;
    if (c > e) {
      f.bad = true;
      break;
    }
    const char *sp = memchr(c, ' ', (size_t)(e - c));
    struct fields idf = {{c}, {(size_t)((sp ? sp : e) - c)}, 1, false, false};
    uint64_t id = dec(&idf, 0);
    size_t first = p->frames.n;
    bool bad = idf.bad;
    for (c = sp ? sp + 1 : e; c < e && !bad;) {
      const char *end = memchr(c, ' ', (size_t)(e - c));
      if (!end)
        end = e;
      const char *colon = memchr(c, ':', (size_t)(end - c));
      if (!colon) {
        bad = true;
        break;
      }
      struct fields mf = {{c}, {(size_t)(colon - c)}, 1, false, false};
      struct frame fr = {(uint32_t)dec(&mf, 0), 0};
      fr.offset = hex_span(colon + 1, (size_t)(end - colon - 1), &bad);
      bad |= mf.bad;
      *vec_push(&p->frames) = fr;
      c = end + 1;
    }
    if (bad || id > UINT32_MAX) {
      p->frames.n = first;
      f.bad = true;
      break;
    }
    uint32_t at = stack_ref(p, (uint32_t)id);
    struct stack *st = &p->stacks.v[at];
    st->first = (uint32_t)first;
    st->n = (uint32_t)(p->frames.n - first);
    break;
  }
  case REC_SYMBOL: {
    uint64_t m = dec(&f, 1), off = hex(&f, 2), foff = hex(&f, 4);
    const char *fn = str(&f, 3);
    if (f.bad)
      break;
    symbol_put(p, (uint32_t)m, off, fn, foff);
    break;
  }
  case REC_TOTALS: {
    struct totals t = {tim(&f, 1), dec(&f, 2), dec(&f, 3), dec(&f, 4),
                       dec(&f, 5), dec(&f, 6), (uint32_t)p->rows.n, 0,
                       (uint32_t)dec(&f, 7)};
    if (f.bad)
      break;
    *vec_push(&p->totals) = t;
    r->open_totals = &p->totals.v[p->totals.n - 1];
    r->group_line = r->line;
    r->group_offset = r->offset;
    break;
  }
  case REC_SITE_TOTALS: {
    uint64_t time = tim(&f, 1);
    struct site_row row = {0, dec(&f, 3), dec(&f, 4), dec(&f, 5),
                           dec(&f, 6), dec(&f, 7), dec(&f, 8)};
    uint64_t id = hex(&f, 2);
    if (f.bad)
      break;
    struct totals *t = r->open_totals;
    if (!t || t->time != time || t->n >= t->expected) {
      input_error(p, r->line, r->offset,
                  "site totals outside a group of periodic totals");
      return;
    }
    row.site = site_ref(p, id);
    *vec_push(&p->rows) = row;
    t->n++;
    break;
  }
  case REC_SNAPSHOT: {
    struct snapshot sn = {dec(&f, 1), tim(&f, 2), str(&f, 4),
                          (uint32_t)p->blocks.n, 0, (uint32_t)dec(&f, 3)};
    if (f.bad)
      break;
    *vec_push(&p->snapshots) = sn;
    r->open_snapshot = &p->snapshots.v[p->snapshots.n - 1];
    r->group_line = r->line;
    r->group_offset = r->offset;
    break;
  }
  case REC_BLOCK: {
    uint64_t number = dec(&f, 1);
    struct block b = {0, (uint32_t)dec(&f, 4), (uint32_t)dec(&f, 6),
                      dec(&f, 3), tim(&f, 5), hex(&f, 7), 0};
    uint64_t id = hex(&f, 2);
    if (f.bad)
      break;
    struct snapshot *sn = r->open_snapshot;
    if (!sn || sn->number != number || sn->n >= sn->expected) {
      input_error(p, r->line, r->offset, "block record outside its snapshot");
      return;
    }
    b.site = site_ref(p, id);
    b.stack = b.stack ? stack_ref(p, b.stack) : NONE;
    *vec_push(&p->blocks) = b;
    sn->n++;
    break;
  }
  case REC_FREE: {
    struct free_event e = {tim(&f, 1), dec(&f, 3), tim(&f, 5), 0,
                           (uint32_t)dec(&f, 4), 0, (uint32_t)dec(&f, 7),
                           (uint32_t)dec(&f, 8)};
    uint64_t site = hex(&f, 2), fsite = hex(&f, 6);
    if (f.bad)
      break;
    e.site = site_ref(p, site);
    e.free_site = site_ref(p, fsite);
    e.stack = e.stack ? stack_ref(p, e.stack) : NONE;
    e.free_stack = e.free_stack ? stack_ref(p, e.free_stack) : NONE;
    *vec_push(&p->frees) = e;
    break;
  }
  case REC_DOUBLE_FREE: {
    struct double_free d = {tim(&f, 1), hex(&f, 2), dec(&f, 3), 0, 0, 0,
                            (uint32_t)dec(&f, 7), (uint32_t)dec(&f, 8)};
    uint64_t a = hex(&f, 4), b = hex(&f, 5), c = hex(&f, 6);
    if (f.bad)
      break;
    d.site = site_ref(p, a);
    d.free_site = site_ref(p, b);
    d.second_site = site_ref(p, c);
    d.stack = d.stack ? stack_ref(p, d.stack) : NONE;
    *vec_push(&p->double_frees) = d;
    break;
  }
  case REC_END:
    p->end_time = tim(&f, 1);
    if (f.bad)
      break;
    p->has_end = true;
    break;
  }
  if (f.too_late) {
    input_error(p, r->line, r->offset,
                "%s record with a time past 2^62 ns (146 years): rejected",
                tags[kind]);
    return;
  }
  if (f.bad) {
    input_error(p, r->line, r->offset, "malformed %s record (%s)", tags[kind],
                field_lists[kind]);
    return;
  }
  p->records++;
}

/* Checks the line's checksum; returns the length of its body, or -1. */
static long checked(struct reader *r, const char *s, size_t len) {
  bool bad = false;
  if (len < 10 || s[len - 9] != ' ') {
    input_error(r->p, r->line, r->offset, "malformed record (no checksum)");
    return -1;
  }
  uint64_t want = hex_span(s + len - 8, 8, &bad);
  if (bad) {
    input_error(r->p, r->line, r->offset, "malformed record (no checksum)");
    return -1;
  }
  if (crc(s, len - 9) != want) {
    input_error(r->p, r->line, r->offset, "bad checksum");
    return -1;
  }
  return (long)(len - 9);
}

bool read_profile(struct profile *p, const char *data, size_t size) {
  struct reader r = {p, 1, 0, NULL, NULL, 0, 0};
  p->kind = "profile";
  init_tables();
  const char *nl = memchr(data, '\n', size);
  if (!nl) {
    input_error(p, 1, 0, "truncated record (the file ends inside it)");
    return false;
  }
  long body = checked(&r, data, (size_t)(nl - data));
  if (body < 0)
    return false;
  struct fields f;
  split(data, (size_t)body, &f);
  p->version = (int)dec(&f, 1);
  if (f.bad || f.n != 2) {
    input_error(p, 1, 0, "malformed MDPROF record");
    return false;
  }
  if (p->version != MD_PROFILE_VERSION) {
    input_error(p, 1, 0,
                "unsupported profile format version %d (this mdebug-report "
                "reads version %d)",
                p->version, MD_PROFILE_VERSION);
    return false;
  }
  const char *s = nl + 1, *end = data + size;
  while (s < end) {
    r.line++;
    r.offset = (uint64_t)(s - data);
    nl = memchr(s, '\n', (size_t)(end - s));
    if (!nl) {
      input_error(p, r.line, r.offset,
                  "truncated record (the file ends inside it)");
      break;
    }
    body = checked(&r, s, (size_t)(nl - s));
    if (body >= 0)
      record(&r, s, (size_t)body);
    s = nl + 1;
  }
  r.offset = size;
  close_groups(&r);
  return true;
}
