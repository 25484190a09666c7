/* util.c - mdebug-report's small helpers: allocation that never returns
 * NULL (running out of memory ends the program with a message), growable
 * arrays, a uint64 -> index map, suppression-style patterns, and the
 * formatting of bytes and times. Nothing here knows the model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void out_of_memory(size_t n) {
  fprintf(stderr, "mdebug-report: out of memory (%zu bytes)\n", n);
  exit(2);
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    out_of_memory(n);
  return p;
}

void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    out_of_memory(n * size);
  return p;
}

void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    out_of_memory(n);
  return p;
}

char *xstrndup(const char *s, size_t n) {
  char *d = xmalloc(n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* The VEC layout: v, n, cap. */
struct anyvec {
  char *v;
  size_t n, cap;
};

void *vec_grow(void *vec, size_t item_size) {
  struct anyvec *a = vec;
  if (a->n == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 16;
    a->v = xrealloc(a->v, a->cap * item_size);
  }
  void *slot = a->v + a->n++ * item_size;
  memset(slot, 0, item_size);
  return slot;
}

/* ---- the map: linear probing; a slot is empty when its value is NONE (so
 * every key, 0 included, can be stored; NONE is never stored as a value). */

static size_t slot_of(uint64_t key, size_t cap) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return (size_t)key & (cap - 1);
}

uint32_t map_get(const struct map *m, uint64_t key) {
  if (!m->cap)
    return NONE;
  for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->vals[i] == NONE)
      return NONE;
    if (m->keys[i] == key)
      return m->vals[i];
  }
}

static void map_insert(uint64_t *keys, uint32_t *vals, size_t cap,
                       uint64_t key, uint32_t val) {
  for (size_t i = slot_of(key, cap);; i = (i + 1) & (cap - 1)) {
    if (vals[i] == NONE || keys[i] == key) {
      keys[i] = key;
      vals[i] = val;
      return;
    }
  }
}

void map_put(struct map *m, uint64_t key, uint32_t val) {
  if ((m->n + 1) * 2 > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    uint64_t *keys = xmalloc(cap * sizeof(*keys));
    uint32_t *vals = xmalloc(cap * sizeof(*vals));
    memset(vals, 0xff, cap * sizeof(*vals));
    for (size_t i = 0; i < m->cap; i++)
      if (m->vals[i] != NONE)
        map_insert(keys, vals, cap, m->keys[i], m->vals[i]);
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
  }
  if (map_get(m, key) == NONE)
    m->n++;
  map_insert(m->keys, m->vals, m->cap, key, val);
}

void map_free(struct map *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof(*m));
}

uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) {
    h ^= c[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* ---- patterns ------------------------------------------------------------ */

/* Does pattern p (no anchors left; '*' wildcards) match text at its start,
 * and reach the end of text if `to_end`? */
static bool match_here(const char *p, const char *t, bool to_end) {
  for (;;) {
    if (!*p)
      return !to_end || !*t;
    if (*p == '*') {
      while (*p == '*')
        p++;
      if (!*p && !to_end)
        return true;
      for (;; t++) {
        if (match_here(p, t, to_end))
          return true;
        if (!*t)
          return false;
      }
    }
    if (!*t || *p != *t)
      return false;
    p++;
    t++;
  }
}

bool pattern_match(const char *pattern, const char *text) {
  if (!text)
    text = "";
  bool start = pattern[0] == '^';
  if (start)
    pattern++;
  size_t n = strlen(pattern);
  bool end = n > 0 && pattern[n - 1] == '$';
  char *p = xstrndup(pattern, end ? n - 1 : n);
  bool hit = false;
  if (start)
    hit = match_here(p, text, end);
  else
    for (const char *t = text; !hit; t++) {
      hit = match_here(p, t, end);
      if (!*t)
        break;
    }
  free(p);
  return hit;
}

/* ---- formatting ---------------------------------------------------------- */

const char *fmt_bytes(double b, char buf[32]) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = fabs(b);
  while (v >= 1024 && u < 4) {
    v /= 1024;
    u++;
  }
  if (u == 0)
    snprintf(buf, 32, "%.0f B", b);
  else
    snprintf(buf, 32, "%.1f %s", b < 0 ? -v : v, units[u]);
  return buf;
}

const char *fmt_time(uint64_t ns, char buf[32]) {
  if (ns >= 999999500ull || ns == 0) /* what rounds to 1000.000 ms is 1 s */
    snprintf(buf, 32, "%.3f s", (double)ns / 1e9);
  else if (ns >= 999999500ull / 1000)
    snprintf(buf, 32, "%.3f ms", (double)ns / 1e6);
  else
    snprintf(buf, 32, "%.3f us", (double)ns / 1e3);
  return buf;
}

bool parse_duration(const char *s, uint64_t *ns) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || v < 0 || v != v)
    return false;
  double scale = 1e9;
  if (strcmp(end, "s") == 0 || *end == '\0')
    scale = 1e9;
  else if (strcmp(end, "ms") == 0)
    scale = 1e6;
  else if (strcmp(end, "us") == 0)
    scale = 1e3;
  else if (strcmp(end, "ns") == 0)
    scale = 1;
  else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
    scale = 60e9;
  else
    return false;
  double r = v * scale;
  if (r > 1.8e19)
    return false;
  *ns = (uint64_t)(r + 0.5);
  return true;
}

/* The runtime's md_escape rule (print.c), so a name reads the same in a
 * report and in mdebug-report's output: '\\', '\n', '\t', '\r', and
 * \xNN for other control bytes and DEL. */
char *text_escape(const char *s) {
  size_t n = 0;
  for (const char *c = s; *c; c++) {
    unsigned char b = (unsigned char)*c;
    n += b == '\\' || b == '\n' || b == '\t' || b == '\r' ? 2
         : b < 0x20 || b == 0x7f                          ? 4
                                                          : 1;
  }
  char *d = xmalloc(n + 1), *o = d;
  for (; *s; s++) {
    unsigned char b = (unsigned char)*s;
    if (b == '\\' || b == '\n' || b == '\t' || b == '\r') {
      *o++ = '\\';
      *o++ = b == '\\' ? '\\' : b == '\n' ? 'n' : b == '\t' ? 't' : 'r';
    } else if (b < 0x20 || b == 0x7f) {
      o += sprintf(o, "\\x%02x", b);
    } else {
      *o++ = (char)b;
    }
  }
  *o = '\0';
  return d;
}

/* A hex digit's value (either case), or -1. */
int hex_digit(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

char *text_unescape(const char *s, size_t n, bool *bad) {
  char *d = xmalloc(n + 1), *o = d;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\') {
      *o++ = s[i];
      continue;
    }
    char c = i + 1 < n ? s[++i] : '\0';
    if (c == '\\' || c == 'n' || c == 't' || c == 'r') {
      *o++ = c == '\\' ? '\\' : c == 'n' ? '\n' : c == 't' ? '\t' : '\r';
    } else if (c == 'x' && i + 2 < n && hex_digit(s[i + 1]) >= 0 &&
               hex_digit(s[i + 2]) >= 0) {
      *o++ = (char)(hex_digit(s[i + 1]) << 4 | hex_digit(s[i + 2]));
      i += 2;
    } else {
      *bad = true;
      break;
    }
  }
  *o = '\0';
  return d;
}
