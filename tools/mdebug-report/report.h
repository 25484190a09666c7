/* report.h - mdebug-report's one internal header: the model every reader
 * fills (a profile: sites, stacks, periodic totals, snapshots of sampled
 * blocks, frees, double frees), the options, and every cross-file function,
 * grouped by the file that defines it.
 *
 * The model is the same whatever the input was (a .mdprof profile, a heap
 * dump, a record_allocs file), so every report works on every input that
 * has the data it needs, and says so when it has not.
 */
#ifndef MDEBUG_REPORT_H
#define MDEBUG_REPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NONE UINT32_MAX

/* ---- util.c: memory, growable arrays, maps, strings ---------------------- */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable array of fixed-size items: VEC(type) v; vec_push(&v) returns a
 * zeroed slot. */
#define VEC(T)                                                                 \
  struct {                                                                     \
    T *v;                                                                      \
    size_t n, cap;                                                             \
  }
void *vec_grow(void *vec, size_t item_size);
#define vec_push(vecp) ((__typeof__((vecp)->v))vec_grow((vecp), sizeof(*(vecp)->v)))

/* uint64 -> uint32 open-addressing map (values are indexes). */
struct map {
  uint64_t *keys;
  uint32_t *vals;
  size_t cap, n;
};
uint32_t map_get(const struct map *m, uint64_t key); /* NONE if absent */
void map_put(struct map *m, uint64_t key, uint32_t val);
void map_free(struct map *m);
uint64_t hash_bytes(uint64_t h, const void *p, size_t n); /* FNV-1a 64 */

/* Pattern as in suppression files: substring, '*' any run, '^'/'$' anchor. */
bool pattern_match(const char *pattern, const char *text);
/* Text from a file made printable by the runtime's rule (md_escape: '\\',
 * '\n', '\t', '\r', \xNN for other control bytes and DEL), and back
 * (*bad set if malformed). Both return malloc'd strings. */
char *text_escape(const char *s);
char *text_unescape(const char *s, size_t n, bool *bad);
/* A hex digit's value (either case), or -1 (util.c). */
int hex_digit(char c);
/* Byte counts and times for people: "1.5 MiB", "12.0 s". */
const char *fmt_bytes(double bytes, char buf[32]);
const char *fmt_time(uint64_t ns, char buf[32]);
/* "2s", "150ms", "3.5" (seconds), "10us", "40ns"; false if malformed. */
bool parse_duration(const char *s, uint64_t *ns);

/* ---- the model ------------------------------------------------------------ */
struct site {
  uint64_t id;
  const char *op, *file, *function, *type; /* NULL: unknown */
  uint32_t line, column;
  uint32_t module; /* NONE unless a pc origin */
  uint64_t offset;
  bool defined; /* an S record (or the reader) described it */
  bool kept;    /* passes the filters */
};
struct frame {
  uint32_t module;
  uint64_t offset;
};
struct stack {
  uint32_t id;
  uint32_t first, n; /* into profile.frames */
};
struct symbol {
  const char *function;
  uint64_t function_offset;
};
struct sampling {
  uint64_t time, rate, bytes;
};
struct limits { /* an L record: tracking rules and what the cap cost */
  uint64_t time, min_size, max_size, max_tracked, missed, lost;
  bool tracking;
};
struct totals {
  uint64_t time, live_bytes, live_blocks, allocs, frees, bytes;
  uint32_t first, n, expected; /* its site rows in profile.rows */
};
struct site_row {
  uint32_t site;
  uint64_t live_blocks, live_bytes, allocs, frees, bytes, peak;
};
struct snapshot {
  uint64_t number, time;
  const char *label;
  uint32_t first, n, expected; /* its blocks in profile.blocks */
};
struct block {
  uint32_t site, stack, tid;
  uint64_t size, time, addr;
  uint64_t count; /* blocks this record stands for exactly (heap dumps) */
};
struct free_event {
  uint64_t time, size, alloc_time;
  uint32_t site, stack, free_site, free_stack, tid;
};
struct double_free {
  uint64_t time, addr, size;
  uint32_t site, free_site, second_site, stack, tid;
};

struct profile {
  const char *path, *kind; /* kind: "profile", "heap dump", "record_allocs" */
  int version, pid;
  const char *program, *options;
  uint64_t start_unix_ns, end_time;
  bool has_end;
  VEC(struct site) sites;
  struct map site_index; /* id -> sites index */
  VEC(const char *) modules;
  VEC(struct stack) stacks;
  struct map stack_index;
  VEC(struct frame) frames;
  struct map symbol_index; /* hash(module, offset) -> symbols index */
  VEC(struct symbol) symbols;
  VEC(struct sampling) samplings;
  VEC(struct limits) limits;
  VEC(struct totals) totals;
  VEC(struct site_row) rows;
  VEC(struct snapshot) snapshots;
  VEC(struct block) blocks;
  VEC(struct free_event) frees;
  VEC(struct double_free) double_frees;
  size_t unknown_records, records;
  bool damaged; /* some record was truncated, corrupt or malformed */
  bool findings; /* a log or JSON reports: read into findings.c only */
};

/* Readers report damage through this: "FILE: line N (byte OFF): what". */
void input_error(struct profile *p, uint64_t line, uint64_t offset,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void input_note(struct profile *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* model helpers (analyze.c) */
uint32_t site_ref(struct profile *p, uint64_t id); /* creates if unknown */
uint32_t stack_ref(struct profile *p, uint32_t id);
uint32_t module_ref(struct profile *p, const char *path); /* by path */
void symbol_put(struct profile *p, uint32_t module, uint64_t offset,
                const char *function, uint64_t function_offset);
const struct symbol *symbol_get(const struct profile *p, uint32_t module,
                                uint64_t offset);
const char *module_name(const struct profile *p, uint32_t module);

/* ---- symbolize.c: source lines from llvm-symbolizer ------------------------ */
struct source {
  const char *function, *file; /* NULL: unknown */
  uint32_t line, column;
};
/* What llvm-symbolizer says of this address of the module (the first call
 * for a profile runs it over all the profile's addresses); NULL when it
 * was not asked (--no-symbolize, no module file) or did not answer. */
const struct source *source_get(const struct profile *p, uint32_t module,
                                uint64_t offset);

/* ---- readers ---------------------------------------------------------------
 * Each returns false when nothing could be read (the error was reported);
 * damage to part of the file sets p->damaged and keeps the rest. */
bool read_input(struct profile *p, const char *path); /* main.c: dispatch */
bool read_profile(struct profile *p, const char *data, size_t size);
/* A string field as heap profiles escape them (%XX), unescaped; NULL for
 * "-"; *bad set if malformed (read_profile.c). */
const char *str_span(const char *s, size_t n, bool *bad);
bool read_heapdump(struct profile *p, const char *data, size_t size);
bool read_records(struct profile *p, const char *data, size_t size);
/* Whether the first line is a record_allocs line. */
bool looks_like_records(const char *data, size_t size);

/* ---- options ---------------------------------------------------------------- */
enum report_kind {
#define REPORT(NAME, ENUM, TITLE) ENUM,
#include "reports.def"
  R_COUNT
};
enum format { F_TEXT, F_CSV, F_FOLDED, F_HTML, F_JSON, F_SARIF };
struct options {
  bool report[R_COUNT];
  bool reports_given;
  enum format format;
  const char *output;
  uint64_t start, stop; /* window, ns from the profile's start */
  bool has_start, has_stop;
  uint64_t warmup_ns;
  double warmup_percent; /* used when warmup_ns == 0 */
  uint64_t slice_ns;
  size_t max_slices;
  size_t limit;        /* rows per report; 0: all */
  double min_percent;  /* rows under this % of the bytes are left out */
  bool show_zero_growth;
  size_t top;          /* sites stacked in the chart */
  const char *diff_a, *diff_b, *snapshot;
  const char *baseline; /* --baseline=FILE */
  VEC(const char *) keep_function, keep_file, keep_module;
  VEC(const char *) drop_function, drop_file, drop_module;
  VEC(uint64_t) plots;
  const char *symbolizer; /* --symbolizer=PATH */
  bool no_symbolize;
};
extern struct options opt;
extern const char *const report_names[R_COUNT];
extern const char *const report_titles[R_COUNT];

/* ---- analyze.c: what the reports compute ------------------------------------ */
/* Sampling weight of a block: how many bytes and blocks it stands for. */
void block_weight(const struct profile *p, const struct block *b,
                  double *bytes, double *blocks);
void apply_filters_and_window(struct profile *p);
/* "malloc at a.c:12:5 (make) as struct node" / "malloc at pc 0x9a1c0 in
 * strdup (/lib/x86_64-linux-gnu/libc.so.6)". */
const char *site_label(const struct profile *p, uint32_t site, char *buf,
                       size_t size);
/* A frame in the runtime's one frame style: "pc 0xOFF in function
 * file:line:col (module)", "pc 0xOFF in function+0xN (module)" or "pc 0xOFF
 * (module)"; OFF the call's address in the module's file. */
const char *frame_label(const struct profile *p, const struct frame *f,
                        char *buf, size_t size);
/* The function name for people: demangled when the symbolizer named it,
 * else the file's. NULL if neither. */
const char *frame_function(const struct profile *p, const struct frame *f);
const struct stack *stack_of(const struct profile *p, uint32_t stack);
/* The snapshot a selector names (label, #number, first, last); NULL. */
const struct snapshot *find_snapshot(const struct profile *p, const char *sel);

struct series { /* live bytes of one site (or of all) at each time point */
  uint64_t *t;
  double *bytes;
  size_t n;
  bool exact; /* from periodic totals (true) or sampled snapshots */
};
/* The points growth and charts use: periodic totals if the file has at
 * least 2 (exact), else the snapshots' estimates. site NONE: all kept. */
void site_series(const struct profile *p, uint32_t site, struct series *s);
void series_free(struct series *s);

struct growth {
  uint32_t site;
  double score, rate, r2, monotonicity, growth, first, last;
  size_t points;
};
/* Every kept site's growth over the points after the warm-up, best first;
 * returns the count (sites with score 0 left out unless show_zero_growth).
 * *warmup_end: the time the warm-up ended. */
size_t growth_analysis(const struct profile *p, struct growth **out,
                       uint64_t *warmup_end, size_t *points);

/* ---- output.c: tables, text and CSV, folded stacks --------------------------- */
enum align { LEFT, RIGHT };
struct table {
  const char *title, *note;
  size_t ncols;
  const char **head;
  const enum align *align;
  VEC(char *) cells; /* row-major, ncols a row */
  VEC(char *) details; /* one per row (NULL: none): stack lines */
};
void table_init(struct table *t, const char *title, size_t ncols,
                const char **head, const enum align *align);
void table_row(struct table *t, const char *detail, ...); /* ncols strings */
void table_free(struct table *t);
size_t table_rows(const struct table *t);
/* Builds the table of report `kind` for p (NULL when it does not apply). */
struct table *build_report(const struct profile *p, enum report_kind kind);
/* Builds the diff of snapshot a (of pa) against b (of pb). */
struct table *build_diff(const struct profile *pa, const struct snapshot *a,
                         const struct profile *pb, const struct snapshot *b);
void print_table_text(FILE *out, const struct table *t);
void print_table_csv(FILE *out, const struct table *t, bool named);
void print_folded(FILE *out, const struct profile *p);
/* Text that came from a file, safe for a terminal (controls escaped). */
void put_escaped(FILE *out, const char *s);

/* ---- findings.c: errors and leaks of many processes, by site ------------------ */
bool looks_like_log(const char *data, size_t size);
bool looks_like_json_reports(const char *data, size_t size);
bool read_log(struct profile *p, const char *data, size_t size);
bool read_json_reports(struct profile *p, const char *data, size_t size);
/* A profile's (or record file's) double frees, as findings. */
void findings_from_profile(const struct profile *p);
/* An earlier --format=json output; false (said on stderr) if it is not. */
bool read_baseline(const char *path, const char *data, size_t size);
size_t findings_count(void);
size_t findings_new(void); /* how many are not in the baseline */
/* The merged table (text, CSV), or JSON, or SARIF, by opt.format. */
void print_findings(FILE *out, size_t inputs);

/* ---- json.c: JSON in and out ------------------------------------------------ */
enum jtype { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };
struct jval {
  enum jtype type;
  bool boolean;
  double number;
  char *str;           /* J_STRING, NUL-terminated */
  size_t n;            /* items (arrays, objects) */
  struct jval **items;
  char **keys;         /* objects: the member names */
};
/* One JSON value filling s[0..n) (whitespace around it); NULL with *err
 * saying why. */
struct jval *json_parse(const char *s, size_t n, const char **err);
void json_free(struct jval *v);
const struct jval *json_get(const struct jval *object, const char *key);
const char *json_string(const struct jval *v); /* NULL if not a string */
double json_number(const struct jval *v, double otherwise);
/* s as a JSON string (always valid: controls escaped, non-UTF-8 as
 * U+FFFD); NULL as null. */
void json_put_string(FILE *out, const char *s);

/* ---- html.c ------------------------------------------------------------------ */
void html_begin(FILE *out);
void html_profile(FILE *out, const struct profile *p, struct table **tables,
                  size_t ntables);
void html_table(FILE *out, const struct table *t);
void html_end(FILE *out);

#endif
