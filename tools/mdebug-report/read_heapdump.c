/* read_heapdump.c - reads an "Android Native Heap Dump v1.2" file (what
 * runtime/src/heapdump.c writes, malloc debug's format) as a profile with
 * one snapshot: each `z` record is a block record standing for `num`
 * blocks of `sz` bytes with its stack; the stack's first frame is the
 * record's allocation point, unless mdebug's `sites` line after it names
 * the instrumented sites of its blocks (with their types), which then are.
 * Absolute pcs are turned into module+offset with the MAPS section;
 * `bt_info` lines (backtrace_full) name the frames. mdebug's extension
 * section (lines "MDEBUG EXTENSION ..." and "mdebug ...": mappings, thread
 * stacks, totals by site) is skipped.
 * A file that stops before its END line is reported as truncated, with
 * the records read so far kept.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct pending { /* a z record, until MAPS resolves its pcs */
  uint64_t size, num;
  size_t first, n; /* into pcs */
  size_t sites_first, sites_n; /* into the dump's sites */
};

struct dump_site { /* one entry of a sites line */
  uint64_t count;
  struct site site;
};


struct map_range {
  uint64_t begin, end, offset;
  uint32_t module;
};

static const char *line_end(const char *s, const char *end) {
  const char *nl = memchr(s, '\n', (size_t)(end - s));
  return nl ? nl : end;
}

static bool starts(const char *s, const char *e, const char *word) {
  size_t n = strlen(word);
  return (size_t)(e - s) >= n && memcmp(s, word, n) == 0;
}

/* Next space-separated token in [*s, e); false at the end. */
static bool token(const char **s, const char *e, const char **t, size_t *n) {
  while (*s < e && (**s == ' ' || **s == '\t'))
    (*s)++;
  if (*s >= e)
    return false;
  *t = *s;
  while (*s < e && **s != ' ' && **s != '\t')
    (*s)++;
  *n = (size_t)(*s - *t);
  return true;
}

static bool number(const char *t, size_t n, int base, uint64_t *v) {
  char buf[32];
  if (n == 0 || n >= sizeof(buf))
    return false;
  memcpy(buf, t, n);
  buf[n] = '\0';
  char *end;
  *v = strtoull(buf, &end, base);
  return *end == '\0';
}

/* "  sites {COUNT ID OP FILE LINE COLUMN FUNCTION TYPE} ...": false if
 * malformed. */
static bool sites_line(const char *s, const char *e, void *vec) {
  VEC(struct dump_site) *v = vec;
  const char *c = s + strlen("  sites");
  while (c < e) {
    while (c < e && *c == ' ')
      c++;
    if (c >= e)
      break;
    const char *close = memchr(c, '}', (size_t)(e - c));
    if (*c != '{' || !close)
      return false;
    const char *t[8];
    size_t n[8], k = 0;
    for (const char *q = c + 1; q < close && k < 8; k++) {
      const char *sp = memchr(q, ' ', (size_t)(close - q));
      const char *end = sp ? sp : close;
      t[k] = q;
      n[k] = (size_t)(end - q);
      q = end + 1;
    }
    uint64_t count, id, line, column;
    bool bad = k != 8 || !number(t[0], n[0], 10, &count) ||
               !number(t[1], n[1], 16, &id) || !number(t[4], n[4], 10, &line) ||
               !number(t[5], n[5], 10, &column);
    if (bad)
      return false;
    struct dump_site d = {count, {id, str_span(t[2], n[2], &bad),
                                  str_span(t[3], n[3], &bad),
                                  str_span(t[6], n[6], &bad),
                                  str_span(t[7], n[7], &bad), (uint32_t)line,
                                  (uint32_t)column, NONE, 0, true, true}};
    if (bad)
      return false;
    *vec_push(v) = d;
    c = close + 1;
  }
  return true;
}

/* A MAPS line's path as the module's name: the kernel writes a newline in
 * a path as "\012", and the runtime other control bytes as "\xNN"
 * (outfile.c's md_out_copy_file). */
static char *maps_path(const char *s, const char *e) {
  char *d = xmalloc((size_t)(e - s) + 1), *o = d;
  while (s < e) {
    if (e - s >= 4 && memcmp(s, "\\012", 4) == 0) {
      *o++ = '\n';
      s += 4;
    } else if (e - s >= 4 && s[0] == '\\' && s[1] == 'x') {
      bool bad = false;
      char *b = text_unescape(s, 4, &bad);
      *o++ = bad ? *s : b[0];
      s += bad ? 1 : 4;
      free(b);
    } else {
      *o++ = *s++;
    }
  }
  *o = '\0';
  return d;
}

/* bt_info {"module" relpc "function" offset} ...: names frames. */
static void bt_info(struct profile *p, const char *s, const char *e) {
  while ((s = memchr(s, '{', (size_t)(e - s))) != NULL) {
    const char *close = memchr(s, '}', (size_t)(e - s));
    if (!close)
      return;
    const char *q1 = memchr(s, '"', (size_t)(close - s));
    const char *q2 = q1 ? memchr(q1 + 1, '"', (size_t)(close - q1 - 1)) : NULL;
    if (!q2)
      return;
    bool bad = false; /* names are md_escape'd (the runtime's heapdump.c) */
    char *module = text_unescape(q1 + 1, (size_t)(q2 - q1 - 1), &bad);
    const char *c = q2 + 1, *t;
    size_t n;
    uint64_t rel = 0, off = 0;
    if (!token(&c, close, &t, &n) || !number(t, n, 16, &rel)) {
      free(module);
      return;
    }
    const char *f1 = memchr(c, '"', (size_t)(close - c));
    const char *f2 = f1 ? memchr(f1 + 1, '"', (size_t)(close - f1 - 1)) : NULL;
    if (f2 && f2 > f1 + 1) {
      c = f2 + 1;
      if (token(&c, close, &t, &n))
        number(t, n, 16, &off);
      char *function = text_unescape(f1 + 1, (size_t)(f2 - f1 - 1), &bad);
      if (bad)
        free(function);
      else
        symbol_put(p, module_ref(p, module), rel, function, off);
    }
    free(module);
    s = close + 1;
  }
}

bool read_heapdump(struct profile *p, const char *data, size_t size) {
  const char *s = data, *end = data + size;
  p->kind = "heap dump";
  const char *e = line_end(s, end);
  const char *magic = "Android Native Heap Dump v";
  if (!starts(s, e, magic)) {
    input_error(p, 1, 0, "not a heap dump");
    return false;
  }
  if ((size_t)(e - s) != strlen(magic) + 3 || memcmp(e - 3, "1.2", 3) != 0) {
    input_error(p, 1, 0,
                "unsupported heap dump version '%.*s' (mdebug-report reads "
                "v1.2)",
                (int)(e - s - (long)strlen(magic)), s + strlen(magic));
    return false;
  }
  VEC(struct pending) recs = {0};
  VEC(uint64_t) pcs = {0};
  VEC(struct map_range) maps = {0};
  VEC(struct dump_site) sites = {0};
  bool in_maps = false, saw_end = false;
  uint64_t line = 1;
  for (s = e < end ? e + 1 : end; s < end && !saw_end; s = e + 1) {
    line++;
    e = line_end(s, end);
    uint64_t offset = (uint64_t)(s - data);
    if (e == end) {
      input_error(p, line, offset, "truncated record (the file ends inside it)");
      p->damaged = true;
      break;
    }
    if (starts(s, e, "END") && e - s == 3) {
      saw_end = true;
      break;
    }
    if (in_maps) {
      /* begin-end perms offset dev inode path */
      const char *c = s, *t;
      size_t n;
      uint64_t b, x, off;
      const char *dash = memchr(s, '-', (size_t)(e - s));
      if (!dash || !token(&c, e, &t, &n) ||
          !number(s, (size_t)(dash - s), 16, &b) ||
          !number(dash + 1, (size_t)(t + n - dash - 1), 16, &x) ||
          !token(&c, e, &t, &n) || !token(&c, e, &t, &n) ||
          !number(t, n, 16, &off) || !token(&c, e, &t, &n) ||
          !token(&c, e, &t, &n))
        continue; /* "Could not open /proc/self/maps" and the like */
      while (c < e && *c == ' ')
        c++;
      if (c < e) {
        char *path = maps_path(c, e);
        *vec_push(&maps) = (struct map_range){b, x, off, module_ref(p, path)};
        free(path);
      }
      continue;
    }
    if (starts(s, e, "MAPS") && e - s == 4) {
      in_maps = true;
      continue;
    }
    /* mdebug's extension section (the runtime's usage.c): not read yet. */
    if (starts(s, e, "MDEBUG EXTENSION ") || starts(s, e, "mdebug "))
      continue;
    if (starts(s, e, "  bt_info")) {
      bt_info(p, s, e);
      continue;
    }
    if (starts(s, e, "  sites")) {
      size_t first = sites.n;
      if (!recs.n || recs.v[recs.n - 1].sites_n || !sites_line(s, e, &sites)) {
        sites.n = first;
        input_error(p, line, offset, "malformed sites line");
        continue;
      }
      recs.v[recs.n - 1].sites_first = first;
      recs.v[recs.n - 1].sites_n = sites.n - first;
      continue;
    }
    if (starts(s, e, "z ")) {
      const char *c = s, *t;
      size_t n;
      uint64_t zv = 0, sz = 0, num = 0;
      bool ok = token(&c, e, &t, &n) && token(&c, e, &t, &n) &&
                number(t, n, 10, &zv) && token(&c, e, &t, &n) &&
                n == 2 && memcmp(t, "sz", 2) == 0 && token(&c, e, &t, &n) &&
                number(t, n, 10, &sz) && token(&c, e, &t, &n) && n == 3 &&
                memcmp(t, "num", 3) == 0 && token(&c, e, &t, &n) &&
                number(t, n, 10, &num) && token(&c, e, &t, &n) && n == 2 &&
                memcmp(t, "bt", 2) == 0;
      struct pending r = {sz, num, pcs.n, 0, 0, 0};
      while (ok && token(&c, e, &t, &n)) {
        uint64_t pc;
        ok = number(t, n, 16, &pc);
        *vec_push(&pcs) = pc;
      }
      if (!ok) {
        pcs.n = r.first;
        input_error(p, line, offset, "malformed heap dump record");
        continue;
      }
      r.n = pcs.n - r.first;
      *vec_push(&recs) = r;
      continue;
    }
    if (e == s || starts(s, e, "Build fingerprint:") ||
        starts(s, e, "Total memory:") || starts(s, e, "Allocation records:") ||
        starts(s, e, "Backtrace size:"))
      continue;
    input_error(p, line, offset, "malformed heap dump line");
  }
  if (!saw_end && !p->damaged)
    input_error(p, line + 1, size, "truncated heap dump: no END line");

  /* One snapshot; each record's pcs become frames through the maps. */
  const char *base = strrchr(p->path, '/');
  struct snapshot *sn = vec_push(&p->snapshots);
  sn->label = xstrdup(base ? base + 1 : p->path);
  for (size_t i = 0; i < recs.n; i++) {
    struct pending *r = &recs.v[i];
    uint64_t h = 0xcbf29ce484222325ull;
    size_t first = p->frames.n;
    for (size_t k = 0; k < r->n; k++) {
      uint64_t pc = pcs.v[r->first + k];
      struct frame fr = {NONE, pc};
      for (size_t m = 0; m < maps.n; m++)
        if (pc >= maps.v[m].begin && pc < maps.v[m].end) {
          fr = (struct frame){maps.v[m].module,
                              pc - maps.v[m].begin + maps.v[m].offset};
          break;
        }
      *vec_push(&p->frames) = fr;
      h = hash_bytes(h, &fr, sizeof(fr));
    }
    uint32_t stack = NONE;
    if (r->n) {
      uint32_t sid = (uint32_t)(h % 0xfffffff0u) + 1;
      stack = map_get(&p->stack_index, sid);
      if (stack == NONE) {
        stack = stack_ref(p, sid);
        p->stacks.v[stack].first = (uint32_t)first;
        p->stacks.v[stack].n = (uint32_t)r->n;
      } else {
        p->frames.n = first;
      }
    }
    /* The sites the runtime named (sites line), then the rest. */
    uint64_t rest = r->num ? r->num : 1;
    for (size_t k = 0; k < r->sites_n; k++) {
      const struct dump_site *d = &sites.v[r->sites_first + k];
      uint32_t site = site_ref(p, d->site.id);
      if (!p->sites.v[site].defined)
        p->sites.v[site] = d->site;
      uint64_t count = d->count < rest ? d->count : rest;
      rest -= count;
      *vec_push(&p->blocks) =
          (struct block){site, stack, 0, r->size, 0, 0, count};
      sn->n++;
    }
    if (!rest)
      continue;
    /* The allocation point: the first frame, named if bt_info named it. */
    struct frame leaf = r->n ? p->frames.v[p->stacks.v[stack].first]
                             : (struct frame){NONE, 0};
    /* Its id: the module's path and the offset, the same in every dump of
     * the same build (so dumps can be compared). */
    const char *mpath = r->n ? module_name(p, leaf.module) : "";
    uint64_t id = r->n ? hash_bytes(hash_bytes(0xcbf29ce484222325ull, mpath,
                                               strlen(mpath)),
                                    &leaf.offset, 8)
                       : 0;
    uint32_t site = site_ref(p, id);
    struct site *st = &p->sites.v[site];
    if (!st->defined) {
      st->defined = true;
      if (r->n) {
        st->module = leaf.module;
        st->offset = leaf.offset;
        const struct symbol *sym = symbol_get(p, leaf.module, leaf.offset);
        st->function = sym ? sym->function : NULL;
      } else {
        st->function = "(no stack recorded)";
      }
    }
    *vec_push(&p->blocks) = (struct block){site, stack, 0, r->size, 0, 0, rest};
    sn->n++;
  }
  sn->expected = sn->n;
  p->records = recs.n;
  free(sites.v);
  free(recs.v);
  free(pcs.v);
  free(maps.v);
  return true;
}
