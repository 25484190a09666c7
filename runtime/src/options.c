/* options.c - MDEBUG_OPTIONS: parsing, defaults, help. Generated from
 * options.def; no option is named anywhere else in this file except the
 * implications malloc debug defines (free_track turns on fill_on_free).
 *
 * Sources, each applied over the one before: the built-in default set, the
 * program's __mdebug_default_options() if it defines one, then
 * MDEBUG_OPTIONS (ignored in a setuid/setgid program, where no option may
 * name a file either). A source with any error is dropped whole, with one line
 * naming the option and the rule, so the program never runs half-configured.
 * What a message quotes from the string is escaped (md_escape): it comes
 * from whoever set the environment.
 * Runs during the first allocation: never allocates, uses no stdio.
 */
#include <string.h>

#include "base.h"
#include "log.h"
#include "options.h"
#include "platform.h"
#include "print.h"

/* What runs when MDEBUG_OPTIONS is unset (documented in docs/options.md), chosen
 * by measuring (bench/README.md). rear_guard=8, no front guard: every guard
 * byte a block of 60 bytes carries is 10% more memory, and Lua's heap is
 * mostly such blocks; 8 bytes catch the common off-by-a-few overflows.
 * free_track_bytes: a thread's quarantine of 256 blocks of several KiB kept
 * SQLite's peak RSS 25% higher. fill_on_free=64: filling and re-checking
 * whole blocks is most of what free_track costs; the first 64 bytes catch
 * most stale writes. */
#define MD_DEFAULT_OPTIONS                                                     \
  "rear_guard=8 free_track=256 free_track_bytes=262144 fill_on_free=64 "      \
  "verify_pointers leak_check track_mmap symbolize"
#define MD_DEFAULT_EXITCODE 23

struct md_options md_opt;

__attribute__((weak)) const char *__mdebug_default_options(void);

enum kind { KIND_FLAG, KIND_SIZE, KIND_NUMBER, KIND_PATH, KIND_PATTERN,
            KIND_ALIAS, KIND_SYNONYM };

struct option_desc {
  const char *name;
  enum kind kind;
  size_t bare, min, max;
  size_t first, second; /* offsets of the fields set; second == first unless alias */
  const char *help;
  const char *target; /* KIND_SYNONYM: the name it stands for */
};

#define FIELD(NAME) offsetof(struct md_options, NAME)
static const struct option_desc table[] = {
#define MD_OPTION(NAME, KIND, BARE, MIN, MAX, HELP)                            \
  {#NAME, KIND_##KIND, BARE, MIN, MAX, FIELD(NAME), FIELD(NAME), HELP, NULL},
#define MD_ALIAS(NAME, FIRST, SECOND, HELP)                                    \
  {#NAME, KIND_ALIAS, 0, 0, 0, FIELD(FIRST), FIELD(SECOND), HELP, NULL},
#define MD_SYNONYM(NAME, TARGET) {#NAME, KIND_SYNONYM, 0, 0, 0, 0, 0, NULL, #TARGET},
#include "options.def"
};
#define TABLE_SIZE (sizeof(table) / sizeof(table[0]))

static const struct option_desc *find(const char *name, size_t nlen) {
  for (size_t i = 0; i < TABLE_SIZE; i++)
    if (strlen(table[i].name) == nlen && memcmp(table[i].name, name, nlen) == 0)
      return &table[i];
  return NULL;
}

/* A synonym is the entry it names; an alias takes kind and limits from the
 * option it sets first. */
static const struct option_desc *unsynonym(const struct option_desc *d) {
  return d->kind == KIND_SYNONYM ? find(d->target, strlen(d->target)) : d;
}
static const struct option_desc *resolve(const struct option_desc *d) {
  d = unsynonym(d);
  if (d->kind != KIND_ALIAS)
    return d;
  for (size_t i = 0; i < TABLE_SIZE; i++)
    if (table[i].first == d->first && table[i].kind != KIND_ALIAS &&
        table[i].kind != KIND_SYNONYM)
      return &table[i];
  return d;
}

static size_t *size_field(struct md_options *o, size_t off) {
  return (size_t *)((char *)o + off);
}

void md_options_set_defaults(struct md_options *opts) {
  memset(opts, 0, sizeof(*opts));
  opts->exitcode = MD_DEFAULT_EXITCODE;
  opts->free_track_backtrace_num_frames = MD_SIZE_ALL; /* not given */
}

#define FAIL(...)                                                              \
  do {                                                                         \
    md_format(err, err_size, __VA_ARGS__);                                     \
    return false;                                                              \
  } while (0)

/* Parses a decimal size_t as malloc debug's strtol-based parser does, with
 * its messages; returns false with the rule on failure. */
static bool parse_value(const char *name, const struct option_desc *limits,
                        const char *v, size_t vlen, size_t *out, char *err,
                        size_t err_size) {
  char value[64], rest[64]; /* for messages: escaped, maybe truncated */
  md_escape(value, sizeof(value), v, vlen);
  size_t i = v[0] == '-' ? 1 : 0, x = 0;
  bool overflow = false;
  for (; i < vlen && v[i] >= '0' && v[i] <= '9'; i++) {
    if (x > (MD_SIZE_ALL - (size_t)(v[i] - '0')) / 10)
      overflow = true;
    x = x * 10 + (size_t)(v[i] - '0');
  }
  if (i == (v[0] == '-' ? 1u : 0u))
    FAIL("bad value for option '%s'", name);
  if (overflow)
    FAIL("bad value for option '%s': Math result not representable", name);
  if (i < vlen) {
    md_escape(rest, sizeof(rest), v + i, vlen - i);
    FAIL("bad value for option '%s', non space found after option: %s",
         name, rest);
  }
  if (v[0] == '-' && x != 0)
    FAIL("bad value for option '%s', value cannot be negative: %s", name,
         value);
  if (x < limits->min)
    FAIL("bad value for option '%s', value must be >= %zu: %s", name,
         limits->min, value);
  if (x > limits->max)
    FAIL("bad value for option '%s', value must be <= %zu: %s", name,
         limits->max, value);
  *out = x;
  return true;
}

/* What this source (one string) set itself, so that free_track's
 * implications never override it. */
struct seen {
  bool fill_on_free, free_track_bytes;
};

static bool apply(struct md_options *opts, const char *name, size_t nlen,
                  const char *value, size_t vlen, bool has_value,
                  struct seen *seen, char *err, size_t err_size) {
  char shown[64]; /* for messages: escaped, maybe truncated */
  md_escape(shown, sizeof(shown), name, nlen);
  const struct option_desc *d = find(name, nlen);
  if (!d)
    FAIL("unknown option %s", shown);
  const struct option_desc *r = resolve(d);
  const char *typed = d->name; /* messages name the spelling used */
  d = unsynonym(d);
  size_t x = r->bare;
  if (has_value && vlen == 0) /* "name=" means the bare default */
    has_value = false;
  switch (r->kind) {
  case KIND_FLAG:
    if (has_value)
      FAIL("value set for option '%s' which does not take a value", typed);
    break;
  case KIND_SIZE:
    if (has_value && !parse_value(typed, r, value, vlen, &x, err, err_size))
      return false;
    break;
  case KIND_NUMBER:
    if (!has_value)
      FAIL("option '%s' requires a value (%s=N)", typed, typed);
    if (!parse_value(typed, r, value, vlen, &x, err, err_size))
      return false;
    break;
  case KIND_ALIAS:
  case KIND_SYNONYM:
    FAIL("option table error at '%s'", typed);
  case KIND_PATH:
  case KIND_PATTERN: {
    const char *what = r->kind == KIND_PATH ? "PATH" : "PATTERN";
    char *field = (char *)opts + r->first;
    if (!has_value || vlen == 0)
      FAIL("option '%s' requires a value (%s=%s)", typed, typed, what);
    if (vlen >= MD_PATH_MAX)
      FAIL("bad value for option '%s', %s longer than %zu bytes", typed,
           r->kind == KIND_PATH ? "path" : "pattern", (size_t)MD_PATH_MAX - 1);
    memcpy(field, value, vlen);
    field[vlen] = '\0';
    return true;
  }
  }
  if (r->first == FIELD(none)) { /* start over from nothing */
    md_options_set_defaults(opts);
    return true;
  }
  *size_field(opts, d->first) = x;
  *size_field(opts, d->second) = x;
  /* malloc debug: free_track fills whole blocks on free, and keeps N
   * blocks however large, unless the same string sets fill_on_free or
   * free_track_bytes (before or after it). */
  if (d->first == FIELD(fill_on_free) || d->second == FIELD(fill_on_free))
    seen->fill_on_free = true;
  if (d->first == FIELD(free_track_bytes))
    seen->free_track_bytes = true;
  if (d->first == FIELD(free_track)) {
    if (!seen->fill_on_free)
      opts->fill_on_free = MD_SIZE_ALL;
    if (!seen->free_track_bytes)
      opts->free_track_bytes = 0;
  }
  return true;
}

static bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == ':';
}

bool md_options_parse(struct md_options *opts, const char *text, char *err,
                      size_t err_size) {
  const char *p = text;
  struct seen seen = {false, false};
  while (*p) {
    while (*p && is_separator(*p))
      p++;
    if (!*p)
      break;
    const char *name = p;
    while (*p && !is_separator(*p) && *p != '=')
      p++;
    size_t nlen = (size_t)(p - name);
    bool has_value = *p == '=';
    const char *value = has_value ? ++p : p;
    while (*p && !is_separator(*p))
      p++;
    if (nlen == 0) {
      char shown[64];
      md_escape(shown, sizeof(shown), value, (size_t)(p - value));
      FAIL("option name missing before '=%s'", shown);
    }
    if (!apply(opts, name, nlen, value, (size_t)(p - value), has_value,
               &seen, err,
               err_size))
      return false;
  }
  return true;
}

void md_options_finish(struct md_options *opts) {
  opts->front_guard = (opts->front_guard + MD_MIN_ALIGN - 1) & ~(size_t)(MD_MIN_ALIGN - 1);
  /* Free stacks cost an unwind per free: by default only when allocation
   * stacks are recorded anyway (malloc debug's default of 16 assumes so). */
  if (opts->free_track_backtrace_num_frames == MD_SIZE_ALL)
    opts->free_track_backtrace_num_frames =
        opts->backtrace || opts->backtrace_enable_on_signal ? 16 : 0;
  /* Naming the sites to guard asks for page guards: every block there. */
  if (opts->page_guard_site[0] && !opts->page_guard)
    opts->page_guard = 1;
}

/* Applies one source over md_opt, or drops it whole with a message. */
static void apply_source(const char *what, const char *text) {
  struct md_options candidate = md_opt;
  char err[256];
  if (!text)
    return;
  if (md_options_parse(&candidate, text, err, sizeof(err)))
    md_opt = candidate;
  else
    md_log("mdebug: %s: %s; ignoring %s", what, err,
           what[0] == 'M' ? "MDEBUG_OPTIONS (running with the defaults)"
                          : "these options");
}

/* In a setuid/setgid program (AT_SECURE) the options that name a file are
 * cleared, whoever set them: mdebug writes no file there and reads none an
 * option names (the hook is the program's, but a path is not a check). */
static void drop_paths(void) {
  char names[256];
  size_t n = 0;
  for (size_t i = 0; i < TABLE_SIZE; i++) {
    char *field = (char *)&md_opt + table[i].first;
    if (table[i].kind != KIND_PATH || !field[0])
      continue;
    n += md_format(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
                   table[i].name);
    field[0] = '\0';
  }
  if (n)
    md_log("mdebug: __mdebug_default_options(): %s ignored in a "
           "setuid/setgid program (AT_SECURE): it writes no file and reads "
           "none an option names", names);
}

void md_options_init(void) {
  char err[256];
  md_options_set_defaults(&md_opt);
  if (!md_options_parse(&md_opt, MD_DEFAULT_OPTIONS, err, sizeof(err)))
    md_die(err); /* a broken built-in default is our bug */
  if (__mdebug_default_options)
    apply_source("__mdebug_default_options()", __mdebug_default_options());
  const char *env = md_getenv("MDEBUG_OPTIONS");
  if (md_secure()) {
    /* The environment is the user's, not the program's: it could make a
     * root program create, append to, truncate or read any file. */
    drop_paths();
    if (env)
      md_log("mdebug: MDEBUG_OPTIONS ignored in a setuid/setgid program "
             "(AT_SECURE)");
  } else {
    apply_source("MDEBUG_OPTIONS", env);
  }
  md_options_finish(&md_opt);
}

MD_COLD void md_options_print_help(void) {
  md_log("mdebug options, set as MDEBUG_OPTIONS=\"name[=value] ...\" "
         "(space or ':' separated); default set: %s", MD_DEFAULT_OPTIONS);
  for (size_t i = 0; i < TABLE_SIZE; i++) {
    const struct option_desc *d = &table[i], *r = resolve(d);
    char syntax[64], range[64];
    switch (r->kind) {
    case KIND_FLAG:
      md_format(syntax, sizeof(syntax), "%s", d->name);
      range[0] = '\0';
      break;
    case KIND_SIZE:
      md_format(syntax, sizeof(syntax), "%s[=N]", d->name);
      if (r->max == MD_SIZE_ALL)
        md_format(range, sizeof(range), "N >= %zu, bare: all", r->min);
      else
        md_format(range, sizeof(range), "N in %zu..%zu, bare: %zu", r->min,
                  r->max, r->bare);
      break;
    case KIND_NUMBER:
      md_format(syntax, sizeof(syntax), "%s=N", d->name);
      if (r->max == MD_SIZE_ALL)
        md_format(range, sizeof(range), "N >= %zu", r->min);
      else
        md_format(range, sizeof(range), "N in %zu..%zu", r->min, r->max);
      break;
    case KIND_PATH:
      md_format(syntax, sizeof(syntax), "%s=PATH", d->name);
      range[0] = '\0';
      break;
    case KIND_PATTERN:
      md_format(syntax, sizeof(syntax), "%s=PATTERN", d->name);
      range[0] = '\0';
      break;
    case KIND_ALIAS:
    case KIND_SYNONYM:
      break; /* resolve() never returns these */
    }
    char same[64];
    const char *help = d->help;
    if (d->kind == KIND_SYNONYM) {
      md_format(same, sizeof(same), "same as %s", d->target);
      help = same;
    }
    md_log("  %-35s  %-26s  %s", syntax, range, help);
  }
}

MD_COLD void md_options_print_active(void) {
  char line[1024];
  size_t n = md_format(line, sizeof(line), "mdebug: options in force:");
  for (size_t i = 0; i < TABLE_SIZE; i++) {
    const struct option_desc *d = &table[i];
    if (d->kind == KIND_ALIAS || d->kind == KIND_SYNONYM ||
        d->first == FIELD(none) || d->first == FIELD(help))
      continue;
    if (d->kind == KIND_PATH || d->kind == KIND_PATTERN) {
      const char *v = (const char *)&md_opt + d->first;
      char shown[MD_PATH_MAX];
      md_escape(shown, sizeof(shown), v, strlen(v));
      if (*v)
        n += md_format(line + n, sizeof(line) - n, " %s=%s", d->name, shown);
      continue;
    }
    size_t v = *size_field(&md_opt, d->first);
    /* 0 means "off" for every option but exitcode, where it is a status. */
    if (v == 0 && d->first != FIELD(exitcode))
      continue;
    if (d->kind == KIND_FLAG)
      n += md_format(line + n, sizeof(line) - n, " %s", d->name);
    else if (v == MD_SIZE_ALL)
      n += md_format(line + n, sizeof(line) - n, " %s", d->name);
    else
      n += md_format(line + n, sizeof(line) - n, " %s=%zu", d->name, v);
  }
  md_log("%s", line);
}
