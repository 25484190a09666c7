/* findings.c - errors and leaks of many processes, merged by site: read
 * from mdebug's text reports (a log_path file, a captured stderr) and from
 * its JSON reports (json_path), plus the double frees of profiles and
 * record files; printed as one table (text, CSV), as JSON, or as SARIF
 * 2.1.0; compared with a baseline (an earlier --format=json output).
 *
 * A finding is (kind, site): the site is the report's own words for the
 * place that matters - where it was detected (freed again, used, read,
 * written, released, detected) or else where the block was allocated (a
 * leak group's site) - as the report prints it, so the same bug read from a
 * log and from JSON is one finding, and its key (a 64-bit hash, in hex)
 * stays the same from run to run and build to build of the same source.
 * Text from the inputs is kept as it was read and escaped where printed.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static const char *const kind_ids[] = {
#define MD_ERROR(NAME, TITLE) #NAME,
#include "errors.def"
};
static const char *const kind_titles[] = {
#define MD_ERROR(NAME, TITLE) TITLE,
#include "errors.def"
};
enum { NKINDS = sizeof(kind_titles) / sizeof(kind_titles[0]) };

struct stack_text {
  char *title;
  VEC(char *) frames;
};

struct finding {
  uint64_t key;
  char *kind, *title; /* kind: the JSON id ("double_free"), title: words */
  bool leak;
  char *site;         /* "free at a.c:3:4 (main)", as the report says it */
  char *file, *function; /* the site's, when it names a source line */
  uint32_t line, column;
  size_t processes, reports;
  uint64_t bytes, blocks; /* leaks: summed over the reports */
  char *input, *program;  /* the first report's */
  int pid;
  VEC(struct stack_text) stacks; /* the first report's */
  bool is_new;        /* not in the baseline */
};

static VEC(struct finding) findings;
static struct map by_key;     /* key -> findings index */
static struct map seen;       /* hash(key, process) -> 1 */
static struct map processes;  /* process -> 1 */
static size_t nprocesses;
static struct map baseline;
static bool have_baseline;

/* ---- one report being read ------------------------------------------------ */
struct occurrence {
  const char *kind, *title;
  bool leak;
  int pid;
  char *program;
  uint64_t bytes, blocks;
  char *site;           /* the best site so far */
  int site_rank;        /* lower is better */
  char *file, *function;
  uint32_t line, column;
  VEC(struct stack_text) stacks;
  bool in_stack;
  char *first_frame;    /* of a failure stack: the site when none is named */
};

static void occ_free(struct occurrence *o) {
  free(o->program);
  free(o->site);
  free(o->file);
  free(o->function);
  free(o->first_frame);
  for (size_t i = 0; i < o->stacks.n; i++) {
    free(o->stacks.v[i].title);
    for (size_t k = 0; k < o->stacks.v[i].frames.n; k++)
      free(o->stacks.v[i].frames.v[k]);
    free(o->stacks.v[i].frames.v);
  }
  free(o->stacks.v);
  memset(o, 0, sizeof(*o));
}

/* How much a site's role says where the bug is: detection first. */
static int role_rank(const char *role, size_t n) {
  static const char *const detected[] = {"freed again", "used", "detected",
                                         "released", "read", "written"};
  for (size_t i = 0; i < sizeof(detected) / sizeof(*detected); i++) {
    size_t k = strlen(detected[i]);
    if (n >= k && memcmp(role, detected[i], k) == 0 &&
        (n == k || role[k] == ' '))
      return 1;
  }
  if (n == 9 && memcmp(role, "allocated", 9) == 0)
    return 2;
  return 3;
}

/* A process is its program's name and its pid: the same process's log
 * and JSON file count once. */
static uint64_t process_id(const char *program, int pid) {
  uint64_t h = hash_bytes(0xcbf29ce484222325ull, program ? program : "",
                          program ? strlen(program) : 0);
  return hash_bytes(h, &pid, sizeof(pid));
}

static void note_process(const char *program, int pid) {
  uint64_t id = process_id(program, pid);
  if (map_get(&processes, id) == NONE) {
    map_put(&processes, id, 1);
    nprocesses++;
  }
}

/* Adds the report to its finding (made on first sight). */
static void occ_finish(struct occurrence *o, const char *input) {
  if (!o->kind) {
    occ_free(o);
    return;
  }
  const char *site = o->site       ? o->site
                     : o->first_frame ? o->first_frame
                                      : "<unknown site>";
  uint64_t key = hash_bytes(0xcbf29ce484222325ull, o->kind, strlen(o->kind));
  key = hash_bytes(key, "|", 1);
  key = hash_bytes(key, site, strlen(site));
  uint64_t pid = process_id(o->program, o->pid);
  uint32_t i = map_get(&by_key, key);
  if (i == NONE) {
    struct finding *f = vec_push(&findings);
    f->key = key;
    f->kind = xstrdup(o->kind);
    f->title = xstrdup(o->title);
    f->leak = o->leak;
    f->site = xstrdup(site);
    f->file = o->file;
    f->function = o->function;
    f->line = o->line;
    f->column = o->column;
    f->input = xstrdup(input);
    f->program = o->program;
    f->pid = o->pid;
    f->stacks.v = o->stacks.v;
    f->stacks.n = o->stacks.n;
    f->stacks.cap = o->stacks.cap;
    o->file = o->function = o->program = NULL;
    o->stacks.v = NULL;
    o->stacks.n = o->stacks.cap = 0;
    i = (uint32_t)(findings.n - 1);
    map_put(&by_key, key, i);
  }
  struct finding *f = &findings.v[i];
  f->reports++;
  if (o->leak) {
    f->bytes += o->bytes; /* each at most 2^64 / 2^20: see read_one */
    f->blocks += o->blocks;
  }
  uint64_t pk = hash_bytes(key, &pid, sizeof(pid));
  if (map_get(&seen, pk) == NONE) {
    map_put(&seen, pk, 1);
    f->processes++;
  }
  if (map_get(&processes, pid) == NONE) {
    map_put(&processes, pid, 1);
    nprocesses++;
  }
  occ_free(o);
}

/* Report text is escaped (md_escape): names are kept as they were. */
static char *unescaped(const char *s, size_t n) {
  bool bad = false;
  char *u = text_unescape(s, n, &bad);
  if (bad) { /* not escaped text after all: as it is */
    free(u);
    u = xstrndup(s, n);
  }
  return u;
}

static bool starts(const char *s, const char *word) {
  return strncmp(s, word, strlen(word)) == 0;
}

/* "FILE:LINE:COL (FUNCTION)[ as TYPE]" (escaped as reports escape names):
 * the source location, when the site names one. */
static void parse_location(struct occurrence *o, const char *desc) {
  if (starts(desc, "pc ") || desc[0] == '<')
    return;
  const char *open = strstr(desc, " (");
  const char *close = open ? strchr(open, ')') : NULL;
  if (!open || !close)
    return;
  /* The function may hold " (" itself (C++): take the last " (" before
   * the last ')' that ends the description or precedes " as ". */
  const char *as = strstr(desc, ") as ");
  const char *end = as ? as : desc + strlen(desc) - 1;
  if (*end != ')')
    return;
  const char *q = NULL;
  for (const char *c = desc; (c = strstr(c, " (")) && c < end; c++)
    q = c;
  if (!q)
    return;
  uint32_t nums[2] = {0, 0};
  int k = 0;
  const char *file_end = q;
  for (; k < 2; k++) {
    const char *colon = file_end;
    while (colon > desc && colon[-1] >= '0' && colon[-1] <= '9')
      colon--;
    if (colon == file_end || colon == desc || colon[-1] != ':' ||
        file_end - colon > 9)
      break;
    nums[k] = (uint32_t)strtoul(colon, NULL, 10);
    file_end = colon - 1;
  }
  bool bad = false;
  char *file = text_unescape(desc, (size_t)(file_end - desc), &bad);
  char *function = text_unescape(q + 2, (size_t)(end - q - 2), &bad);
  if (bad || !*file) {
    free(file);
    free(function);
    return;
  }
  free(o->file);
  free(o->function);
  o->file = file;
  o->function = function;
  o->line = k == 2 ? nums[1] : k == 1 ? nums[0] : 0;
  o->column = k == 2 ? nums[0] : 0;
}

/* "  ROLE by OP at DESC" or "  ROLE at DESC": a site line. */
static void site_line(struct occurrence *o, const char *line) {
  const char *role = line + 2;
  const char *at = strstr(role, " at ");
  if (!at || role[0] < 'a' || role[0] > 'z')
    return;
  const char *by = strstr(role, " by ");
  size_t role_len = (size_t)((by && by < at ? by : at) - role);
  int rank = role_rank(role, role_len);
  if (rank > 2 || (o->site && rank >= o->site_rank))
    return;
  /* The op and where, without the type: "free at a.c:3:4 (main)". */
  const char *desc = at + 4;
  if (starts(desc, "0x"))
    return; /* "... at 0x...": an address, not a site */
  const char *as = strstr(desc, ") as ");
  size_t dn = as ? (size_t)(as + 1 - desc) : strlen(desc);
  char *where = unescaped(desc, dn), *site;
  if (by && by < at)
    site = xasprintf("%.*s at %s", (int)(at - by - 4), by + 4, where);
  else
    site = xasprintf("%.*s at %s", (int)role_len, role, where);
  free(where);
  free(o->site);
  o->site = site;
  o->site_rank = rank;
  free(o->file);
  free(o->function);
  o->file = o->function = NULL;
  o->line = o->column = 0;
  parse_location(o, desc);
}

/* "Direct leak of 24 bytes in 1 block:", "24 bytes in 1 block:" */
static bool leak_group_line(const char *line, uint64_t *bytes,
                            uint64_t *blocks) {
  const char *c = line;
  if (starts(c, "Direct leak of "))
    c += 15;
  else if (starts(c, "Indirect leak of "))
    c += 17;
  size_t n = strlen(line);
  if (c[0] < '0' || c[0] > '9' || !n || line[n - 1] != ':')
    return false;
  char *end;
  unsigned long long b = strtoull(c, &end, 10);
  const char *in = strstr(end, " in ");
  if (!starts(end, " byte") || !in)
    return false;
  *bytes = b;
  *blocks = strtoull(in + 4, NULL, 10);
  return true;
}

static const char *title_kind(const char *title, size_t n, const char **t) {
  for (size_t k = 0; k < NKINDS; k++)
    if (strlen(kind_titles[k]) == n && memcmp(kind_titles[k], title, n) == 0) {
      *t = kind_titles[k];
      return kind_ids[k];
    }
  return NULL;
}

/* The kind ids are errors.def's names; reports use them lower case. */
static const char *kind_name(const char *id) {
  static char names[NKINDS][64];
  for (size_t k = 0; k < NKINDS; k++)
    if (id == kind_ids[k] || strcasecmp(id, kind_ids[k]) == 0) {
      if (!names[k][0])
        for (size_t i = 0; kind_ids[k][i] && i < 63; i++)
          names[k][i] = (char)(kind_ids[k][i] >= 'A' && kind_ids[k][i] <= 'Z'
                                   ? kind_ids[k][i] + 32
                                   : kind_ids[k][i]);
      return names[k];
    }
  return NULL;
}

struct log_state {
  struct occurrence cur;
  bool in_leak_report;
  int pid;
  char *program;
};

/* One line of a text report (a log, or a JSON object's text). */
static void log_line(struct log_state *st, const char *line,
                     const char *input) {
  struct occurrence *o = &st->cur;
  uint64_t bytes, blocks;
  const char *title;
  if (starts(line, "mdebug: ERROR: ")) {
    occ_finish(o, input);
    const char *t = line + 15, *in = strstr(t, " in ");
    const char *pid = strstr(t, " (pid ");
    const char *kind = in ? title_kind(t, (size_t)(in - t), &title) : NULL;
    st->pid = pid ? atoi(pid + 6) : 0;
    free(st->program);
    st->program = in && pid && pid > in
                      ? text_unescape(in + 4, (size_t)(pid - in - 4),
                                      &(bool){false})
                      : NULL;
    st->in_leak_report = kind && strcmp(kind, "LEAK") == 0;
    if (kind && !st->in_leak_report) {
      o->kind = kind_name(kind);
      o->title = title;
      o->pid = st->pid;
      o->program = st->program ? xstrdup(st->program) : NULL;
    }
    return;
  }
  if (starts(line, "*** *** ***")) {
    occ_finish(o, input);
    st->in_leak_report = false;
    return;
  }
  if (st->in_leak_report && leak_group_line(line, &bytes, &blocks)) {
    occ_finish(o, input);
    o->kind = "leak";
    o->title = "memory leak";
    o->leak = true;
    o->bytes = bytes;
    o->blocks = blocks;
    o->pid = st->pid;
    o->program = st->program ? xstrdup(st->program) : NULL;
    return;
  }
  if (!o->kind)
    return;
  const char *c = line;
  while (*c == ' ')
    c++;
  if (*c == '#' && o->in_stack) {
    struct stack_text *s = &o->stacks.v[o->stacks.n - 1];
    *vec_push(&s->frames) = unescaped(c, strlen(c));
    if (!o->first_frame && strstr(s->title, "failure")) {
      /* "#00  pc 0000000000001139  /path/module (function+57)": the
       * frame without its number is the site when none is named. */
      const char *f = c + 1;
      while (*f >= '0' && *f <= '9')
        f++;
      while (*f == ' ')
        f++;
      char *u = unescaped(f, strlen(f));
      o->first_frame = xasprintf("%s at %s", o->title, u);
      free(u);
    }
    return;
  }
  size_t n = strlen(line);
  if (starts(line, "Backtrace") && n && line[n - 1] == ':') {
    struct stack_text *s = vec_push(&o->stacks);
    s->title = unescaped(line, n - 1);
    o->in_stack = true;
    return;
  }
  o->in_stack = false;
  if (line[0] == ' ' && line[1] == ' ' && line[2] != ' ')
    site_line(o, line);
}

/* ---- readers -------------------------------------------------------------- */

bool looks_like_log(const char *data, size_t size) {
  return (size >= 11 && memcmp(data, "*** *** ***", 11) == 0) ||
         (size >= 8 && memcmp(data, "mdebug: ", 8) == 0);
}

bool looks_like_json_reports(const char *data, size_t size) {
  return size >= 12 && memcmp(data, "{\"mdebug\":1,", 12) == 0;
}

bool read_log(struct profile *p, const char *data, size_t size) {
  p->kind = "mdebug log";
  p->findings = true;
  struct log_state st = {0};
  const char *s = data, *end = data + size;
  char *line = NULL;
  size_t cap = 0;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t n = (size_t)((nl ? nl : end) - s);
    if (n + 1 > cap)
      line = xrealloc(line, cap = n + 1);
    memcpy(line, s, n);
    line[n] = '\0';
    if (memchr(line, '\0', n)) {
      /* a NUL inside a line: not our text; the line is skipped */
    } else {
      log_line(&st, line, p->path);
    }
    p->records++;
    s = nl ? nl + 1 : end;
  }
  occ_finish(&st.cur, p->path);
  free(st.program);
  free(line);
  return true;
}

/* One object of a json_path file: its text lines are read as a log's
 * (so the finding is the same), then its structured site, when it names
 * a source line, gives the location. */
static void read_object(struct profile *p, const struct jval *o, uint64_t line,
                        uint64_t offset) {
  const char *kind = json_string(json_get(o, "kind"));
  const struct jval *text = json_get(o, "text");
  if (!kind || !text || text->type != J_ARRAY) {
    input_error(p, line, offset, "not an mdebug JSON report (no kind or text)");
    return;
  }
  struct log_state st = {0};
  st.pid = (int)json_number(json_get(o, "pid"), 0);
  const char *program = json_string(json_get(o, "program"));
  st.program = program ? xstrdup(program) : NULL;
  if (strcmp(kind, "leak") == 0)
    st.in_leak_report = true;
  for (size_t i = 0; i < text->n; i++) {
    const char *l = json_string(text->items[i]);
    if (l && !strchr(l, '\n'))
      log_line(&st, l, p->path);
  }
  /* A leak group's object has no header line. */
  if (st.cur.kind) {
    const struct jval *sites = json_get(o, "sites");
    for (size_t i = 0; sites && sites->type == J_ARRAY && i < sites->n; i++) {
      const struct jval *s = sites->items[i];
      const char *role = json_string(json_get(s, "role"));
      const char *file = json_string(json_get(s, "file"));
      if (!role || !file || role_rank(role, strlen(role)) != st.cur.site_rank)
        continue;
      free(st.cur.file);
      free(st.cur.function);
      const char *fn = json_string(json_get(s, "function"));
      st.cur.file = xstrdup(file);
      st.cur.function = fn ? xstrdup(fn) : NULL;
      double l = json_number(json_get(s, "line"), 0);
      double c = json_number(json_get(s, "column"), 0);
      st.cur.line = l >= 0 && l < 1e9 ? (uint32_t)l : 0;
      st.cur.column = c >= 0 && c < 1e9 ? (uint32_t)c : 0;
      break;
    }
  }
  occ_finish(&st.cur, p->path);
  free(st.program);
}

bool read_json_reports(struct profile *p, const char *data, size_t size) {
  p->kind = "JSON reports";
  p->findings = true;
  const char *s = data, *end = data + size;
  uint64_t line = 0;
  while (s < end) {
    line++;
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    uint64_t offset = (uint64_t)(s - data);
    if (!nl) {
      input_error(p, line, offset, "truncated record (the file ends inside it)");
      break;
    }
    const char *err;
    struct jval *o = json_parse(s, (size_t)(nl - s), &err);
    if (!o)
      input_error(p, line, offset, "malformed JSON report: %s", err);
    else if (o->type != J_OBJECT)
      input_error(p, line, offset, "malformed JSON report: not an object");
    else
      read_object(p, o, line, offset);
    json_free(o);
    p->records++;
    s = nl + 1;
  }
  return true;
}

void findings_from_profile(const struct profile *p) {
  if (p->pid)
    note_process(p->program, p->pid);
  for (size_t i = 0; i < p->double_frees.n; i++) {
    const struct double_free *d = &p->double_frees.v[i];
    struct occurrence o = {0};
    o.kind = "double_free";
    o.title = "double free";
    o.pid = p->pid;
    o.program = p->program ? xstrdup(p->program) : NULL;
    char label[1024];
    uint32_t site = d->second_site != NONE ? d->second_site : d->site;
    site_label(p, site, label, sizeof(label));
    o.site = xstrdup(label);
    const struct site *st = site != NONE ? &p->sites.v[site] : NULL;
    if (st && st->file) {
      o.file = xstrdup(st->file);
      o.function = st->function ? xstrdup(st->function) : NULL;
      o.line = st->line;
      o.column = st->column;
    }
    occ_finish(&o, p->path);
  }
}

/* ---- the baseline -------------------------------------------------------- */

bool read_baseline(const char *path, const char *data, size_t size) {
  const char *err;
  struct jval *v = json_parse(data, size, &err);
  const struct jval *list = json_get(v, "findings");
  if (!v || !list || list->type != J_ARRAY) {
    fprintf(stderr, "mdebug-report: error: --baseline: ");
    put_escaped(stderr, path);
    fprintf(stderr, ": not an mdebug-report --format=json output (%s)\n",
            v ? "no findings list" : err);
    json_free(v);
    return false;
  }
  for (size_t i = 0; i < list->n; i++) {
    const char *key = json_string(json_get(list->items[i], "key"));
    char *end;
    if (key && strlen(key) == 16) {
      uint64_t k = strtoull(key, &end, 16);
      if (!*end)
        map_put(&baseline, k, 1);
    }
  }
  have_baseline = true;
  json_free(v);
  return true;
}

size_t findings_new(void) {
  size_t n = 0;
  for (size_t i = 0; i < findings.n; i++) {
    findings.v[i].is_new =
        have_baseline && map_get(&baseline, findings.v[i].key) == NONE;
    n += findings.v[i].is_new;
  }
  return n;
}

size_t findings_count(void) { return findings.n; }

/* ---- output -------------------------------------------------------------- */

/* Errors first, then leaks; more processes first; more bytes first. */
static int by_weight(const void *pa, const void *pb) {
  const struct finding *a = pa, *b = pb;
  if (a->leak != b->leak)
    return a->leak ? 1 : -1;
  if (a->processes != b->processes)
    return a->processes > b->processes ? -1 : 1;
  if (a->bytes != b->bytes)
    return a->bytes > b->bytes ? -1 : 1;
  if (a->reports != b->reports)
    return a->reports > b->reports ? -1 : 1;
  return strcmp(a->site, b->site);
}

static void sort_findings(void) {
  qsort(findings.v, findings.n, sizeof(*findings.v), by_weight);
}

/* The first report's stacks, one line each ("Backtrace ...:" then its
 * frames), escaped, for a table row's detail. */
static char *stacks_detail(const struct finding *f) {
  size_t cap = 256, len = 0;
  char *d = xmalloc(cap);
  d[0] = '\0';
  for (size_t i = 0; i < f->stacks.n; i++) {
    const struct stack_text *s = &f->stacks.v[i];
    for (size_t k = 0; k <= s->frames.n; k++) {
      char *e = text_escape(k ? s->frames.v[k - 1] : s->title);
      size_t need = len + strlen(e) + 8;
      if (need > cap)
        d = xrealloc(d, cap = need * 2);
      len += (size_t)sprintf(d + len, "%s%s%s%s", len ? "\n" : "",
                             k ? "  " : "", e, k ? "" : ":");
      free(e);
    }
  }
  if (!len) {
    free(d);
    return NULL;
  }
  return d;
}

static void print_table(FILE *out, size_t inputs) {
  static const char *head[] = {"processes", "reports", "kind",
                               "leaked bytes", "key", "site"};
  static const char *head_new[] = {"new", "processes", "reports", "kind",
                                   "leaked bytes", "key", "site"};
  static const enum align al[] = {RIGHT, RIGHT, LEFT, RIGHT, LEFT, LEFT};
  static const enum align al_new[] = {LEFT, RIGHT, RIGHT, LEFT,
                                      RIGHT, LEFT, LEFT};
  struct table *t = xcalloc(1, sizeof(*t));
  table_init(t, "Errors and leaks by site", have_baseline ? 7 : 6,
             have_baseline ? head_new : head, have_baseline ? al_new : al);
  size_t nnew = findings_new();
  if (have_baseline)
    t->note = xasprintf("%zu unique errors and leaks in %zu processes (%zu "
                       "inputs); %zu not in the baseline",
                       findings.n, nprocesses, inputs, nnew);
  else
    t->note = xasprintf("%zu unique errors and leaks in %zu processes (%zu "
                       "inputs)",
                       findings.n, nprocesses, inputs);
  for (size_t i = 0; i < findings.n; i++) {
    const struct finding *f = &findings.v[i];
    if (opt.limit && i >= opt.limit)
      break;
    char c[5][40];
    snprintf(c[0], 40, "%zu", f->processes);
    snprintf(c[1], 40, "%zu", f->reports);
    if (!f->leak)
      snprintf(c[2], 40, "-");
    else if (opt.format == F_CSV)
      snprintf(c[2], 40, "%llu", (unsigned long long)f->bytes);
    else
      fmt_bytes((double)f->bytes, c[2]);
    snprintf(c[3], 40, "%016llx", (unsigned long long)f->key);
    char *detail = stacks_detail(f);
    if (have_baseline)
      table_row(t, detail, f->is_new ? "NEW" : "", c[0], c[1], f->kind, c[2],
                c[3], f->site);
    else
      table_row(t, detail, c[0], c[1], f->kind, c[2], c[3], f->site);
    free(detail);
  }
  if (opt.format == F_CSV)
    print_table_csv(out, t, false);
  else
    print_table_text(out, t);
  table_free(t);
}

static void put_stacks_json(FILE *out, const struct finding *f) {
  fputs("[", out);
  for (size_t i = 0; i < f->stacks.n; i++) {
    const struct stack_text *s = &f->stacks.v[i];
    fputs(i ? ",{\"title\":" : "{\"title\":", out);
    json_put_string(out, s->title);
    fputs(",\"frames\":[", out);
    for (size_t k = 0; k < s->frames.n; k++) {
      if (k)
        fputc(',', out);
      json_put_string(out, s->frames.v[k]);
    }
    fputs("]}", out);
  }
  fputs("]", out);
}

static void print_json(FILE *out, size_t inputs) {
  findings_new();
  fprintf(out, "{\"mdebug_report\":1,\"inputs\":%zu,\"processes\":%zu,"
               "\"findings\":[",
          inputs, nprocesses);
  for (size_t i = 0; i < findings.n; i++) {
    const struct finding *f = &findings.v[i];
    fprintf(out, "%s\n{\"key\":\"%016llx\",\"kind\":", i ? "," : "",
            (unsigned long long)f->key);
    json_put_string(out, f->kind);
    fputs(",\"title\":", out);
    json_put_string(out, f->title);
    fprintf(out, ",\"level\":\"%s\",\"site\":", f->leak ? "warning" : "error");
    json_put_string(out, f->site);
    if (f->file) {
      fputs(",\"file\":", out);
      json_put_string(out, f->file);
      fprintf(out, ",\"line\":%u,\"column\":%u,\"function\":", f->line,
              f->column);
      json_put_string(out, f->function);
    }
    fprintf(out, ",\"processes\":%zu,\"reports\":%zu", f->processes,
            f->reports);
    if (f->leak)
      fprintf(out, ",\"bytes\":%llu,\"blocks\":%llu",
              (unsigned long long)f->bytes, (unsigned long long)f->blocks);
    if (have_baseline)
      fprintf(out, ",\"new\":%s", f->is_new ? "true" : "false");
    fputs(",\"example\":{\"input\":", out);
    json_put_string(out, f->input);
    fprintf(out, ",\"pid\":%d,\"program\":", f->pid);
    json_put_string(out, f->program);
    fputs(",\"stacks\":", out);
    put_stacks_json(out, f);
    fputs("}}", out);
  }
  fputs("\n]}\n", out);
}

/* A file name as a URI reference (RFC 3986): unreserved bytes and '/' as
 * they are, every other byte %XX; absolute paths as file:// URIs. */
static void put_uri(FILE *out, const char *path) {
  fputc('"', out);
  if (path[0] == '/')
    fputs("file://", out);
  for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
    if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
        (*c >= '0' && *c <= '9') || strchr("-._~/", *c))
      fputc(*c, out);
    else
      fprintf(out, "%%%02X", *c);
  }
  fputc('"', out);
}

static void print_sarif(FILE *out) {
  findings_new();
  /* The rules: every kind a finding has, in errors.def's order. */
  int rule_of[NKINDS];
  size_t nrules = 0;
  fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
        "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
        "\"name\":\"mdebug\",\"informationUri\":"
        "\"https://github.com/mdebug/mdebug\",\"rules\":[",
        out);
  for (size_t k = 0; k < NKINDS; k++) {
    rule_of[k] = -1;
    const char *name = kind_name(kind_ids[k]);
    for (size_t i = 0; i < findings.n; i++)
      if (strcmp(findings.v[i].kind, name) == 0) {
        rule_of[k] = (int)nrules;
        fprintf(out, "%s{\"id\":", nrules++ ? "," : "");
        json_put_string(out, name);
        fputs(",\"shortDescription\":{\"text\":", out);
        json_put_string(out, kind_titles[k]);
        fprintf(out, "},\"defaultConfiguration\":{\"level\":\"%s\"}}",
                strcmp(name, "leak") == 0 ? "warning" : "error");
        break;
      }
  }
  fputs("]}},\"results\":[", out);
  for (size_t i = 0; i < findings.n; i++) {
    const struct finding *f = &findings.v[i];
    int rule = -1;
    for (size_t k = 0; k < NKINDS; k++)
      if (strcmp(kind_name(kind_ids[k]), f->kind) == 0)
        rule = rule_of[k];
    fprintf(out, "%s\n{\"ruleId\":", i ? "," : "");
    json_put_string(out, f->kind);
    if (rule >= 0)
      fprintf(out, ",\"ruleIndex\":%d", rule);
    fprintf(out, ",\"level\":\"%s\",\"message\":{\"text\":",
            f->leak ? "warning" : "error");
    char *text;
    if (f->leak)
      text = xasprintf("%s: %llu bytes in %llu blocks leaked, allocated by "
                       "%s (%zu processes, %zu reports)",
                       f->title, (unsigned long long)f->bytes,
                       (unsigned long long)f->blocks, f->site, f->processes,
                       f->reports);
    else
      text = xasprintf("%s: %s (%zu processes, %zu reports)", f->title,
                       f->site, f->processes, f->reports);
    json_put_string(out, text);
    free(text);
    fputs("},\"locations\":[{", out);
    if (f->file) {
      fputs("\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
      put_uri(out, f->file);
      fputs("}", out);
      if (f->line) {
        fprintf(out, ",\"region\":{\"startLine\":%u", f->line);
        if (f->column)
          fprintf(out, ",\"startColumn\":%u", f->column);
        fputs("}", out);
      }
      fputs("}", out);
      if (f->function)
        fputs(",", out);
    }
    if (f->function || !f->file) {
      fputs("\"logicalLocations\":[{\"fullyQualifiedName\":", out);
      json_put_string(out, f->function ? f->function : f->site);
      fputs(",\"kind\":\"function\"}]", out);
    }
    fprintf(out, "}],\"partialFingerprints\":{\"mdebugSite/v1\":"
                 "\"%016llx\"}",
            (unsigned long long)f->key);
    if (f->stacks.n) {
      fputs(",\"stacks\":[", out);
      for (size_t s = 0; s < f->stacks.n; s++) {
        const struct stack_text *st = &f->stacks.v[s];
        fputs(s ? ",{\"message\":{\"text\":" : "{\"message\":{\"text\":", out);
        json_put_string(out, st->title);
        fputs("},\"frames\":[", out);
        for (size_t k = 0; k < st->frames.n; k++) {
          fputs(k ? ",{\"location\":{\"message\":{\"text\":"
                  : "{\"location\":{\"message\":{\"text\":",
                out);
          json_put_string(out, st->frames.v[k]);
          fputs("}}}", out);
        }
        fputs("]}", out);
      }
      fputs("]", out);
    }
    fprintf(out, ",\"properties\":{\"processes\":%zu,\"reports\":%zu",
            f->processes, f->reports);
    if (f->leak)
      fprintf(out, ",\"bytes\":%llu,\"blocks\":%llu",
              (unsigned long long)f->bytes, (unsigned long long)f->blocks);
    if (have_baseline)
      fprintf(out, ",\"new\":%s", f->is_new ? "true" : "false");
    fputs("}}", out);
  }
  fputs("\n]}]}\n", out);
}

void print_findings(FILE *out, size_t inputs) {
  sort_findings();
  if (opt.format == F_JSON)
    print_json(out, inputs);
  else if (opt.format == F_SARIF)
    print_sarif(out);
  else
    print_table(out, inputs);
}
