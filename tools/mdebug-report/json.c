/* json.c - the JSON mdebug-report reads (the runtime's json_path files, a
 * baseline) and writes (--format=json, --format=sarif): a small parser
 * into a tree, and string output that is always valid JSON (UTF-8, control
 * bytes escaped, bytes that are not UTF-8 as U+FFFD). The parser accepts
 * RFC 8259 JSON only, nests at most 64 deep and never trusts a length.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct parser {
  const char *s, *e;
  const char *err;
  int depth;
};

static void skip_ws(struct parser *p) {
  while (p->s < p->e &&
         (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
    p->s++;
}

static struct jval *fail(struct parser *p, const char *why) {
  if (!p->err)
    p->err = why;
  return NULL;
}

static void put_utf8(char **o, uint32_t c) {
  char *d = *o;
  if (c < 0x80) {
    *d++ = (char)c;
  } else if (c < 0x800) {
    *d++ = (char)(0xc0 | c >> 6);
    *d++ = (char)(0x80 | (c & 0x3f));
  } else if (c < 0x10000) {
    *d++ = (char)(0xe0 | c >> 12);
    *d++ = (char)(0x80 | (c >> 6 & 0x3f));
    *d++ = (char)(0x80 | (c & 0x3f));
  } else {
    *d++ = (char)(0xf0 | c >> 18);
    *d++ = (char)(0x80 | (c >> 12 & 0x3f));
    *d++ = (char)(0x80 | (c >> 6 & 0x3f));
    *d++ = (char)(0x80 | (c & 0x3f));
  }
  *o = d;
}

static bool hex4(struct parser *p, uint32_t *v) {
  if (p->e - p->s < 4)
    return false;
  *v = 0;
  for (int i = 0; i < 4; i++) {
    char c = *p->s++;
    int d = hex_digit(c);
    if (d < 0)
      return false;
    *v = *v << 4 | (uint32_t)d;
  }
  return true;
}

/* At the opening quote; the string unescaped (a \u0000 becomes U+FFFD, so
 * the result is a C string). */
static char *parse_string(struct parser *p) {
  p->s++;
  const char *start = p->s;
  size_t n = 0;
  while (start + n < p->e && start[n] != '"')
    n += start[n] == '\\' && start + n + 1 < p->e ? 2 : 1;
  if (start + n >= p->e) {
    fail(p, "unterminated string");
    return NULL;
  }
  char *out = xmalloc(n * 2 + 4), *o = out; /* \uXXXX: 6 bytes -> <= 4 */
  while (p->s < p->e && *p->s != '"') {
    unsigned char c = (unsigned char)*p->s;
    if (c < 0x20) {
      free(out);
      fail(p, "control byte in a string");
      return NULL;
    }
    if (c != '\\') {
      *o++ = (char)c;
      p->s++;
      continue;
    }
    p->s++;
    char esc = p->s < p->e ? *p->s++ : '\0';
    uint32_t u;
    switch (esc) {
    case '"': *o++ = '"'; break;
    case '\\': *o++ = '\\'; break;
    case '/': *o++ = '/'; break;
    case 'b': *o++ = '\b'; break;
    case 'f': *o++ = '\f'; break;
    case 'n': *o++ = '\n'; break;
    case 'r': *o++ = '\r'; break;
    case 't': *o++ = '\t'; break;
    case 'u':
      if (!hex4(p, &u)) {
        free(out);
        fail(p, "bad \\u escape");
        return NULL;
      }
      if (u >= 0xd800 && u < 0xdc00 && p->e - p->s >= 6 && p->s[0] == '\\' &&
          p->s[1] == 'u') {
        uint32_t lo;
        p->s += 2;
        if (hex4(p, &lo) && lo >= 0xdc00 && lo < 0xe000)
          u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
        else
          u = 0xfffd;
      } else if ((u >= 0xd800 && u < 0xe000) || u == 0) {
        u = 0xfffd;
      }
      put_utf8(&o, u);
      break;
    default:
      free(out);
      fail(p, "bad escape in a string");
      return NULL;
    }
  }
  p->s++; /* the closing quote */
  *o = '\0';
  return out;
}

static struct jval *parse_value(struct parser *p);

static struct jval *new_val(enum jtype t) {
  struct jval *v = xcalloc(1, sizeof(*v));
  v->type = t;
  return v;
}

static struct jval *parse_container(struct parser *p, bool object) {
  if (++p->depth > 64)
    return fail(p, "nested more than 64 deep");
  p->s++;
  struct jval *v = new_val(object ? J_OBJECT : J_ARRAY);
  size_t cap = 0;
  skip_ws(p);
  if (p->s < p->e && *p->s == (object ? '}' : ']')) {
    p->s++;
    p->depth--;
    return v;
  }
  for (;;) {
    skip_ws(p);
    char *key = NULL;
    if (object) {
      if (p->s >= p->e || *p->s != '"' || !(key = parse_string(p))) {
        json_free(v);
        return fail(p, "expected a member name");
      }
      skip_ws(p);
      if (p->s >= p->e || *p->s != ':') {
        free(key);
        json_free(v);
        return fail(p, "expected ':'");
      }
      p->s++;
    }
    struct jval *item = parse_value(p);
    if (!item) {
      free(key);
      json_free(v);
      return NULL;
    }
    if (v->n == cap) {
      cap = cap ? cap * 2 : 4;
      v->items = xrealloc(v->items, cap * sizeof(*v->items));
      if (object)
        v->keys = xrealloc(v->keys, cap * sizeof(*v->keys));
    }
    if (object)
      v->keys[v->n] = key;
    v->items[v->n++] = item;
    skip_ws(p);
    if (p->s < p->e && *p->s == ',') {
      p->s++;
      continue;
    }
    if (p->s < p->e && *p->s == (object ? '}' : ']')) {
      p->s++;
      p->depth--;
      return v;
    }
    json_free(v);
    return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
  }
}

static struct jval *parse_value(struct parser *p) {
  skip_ws(p);
  if (p->s >= p->e)
    return fail(p, "unexpected end");
  char c = *p->s;
  if (c == '{' || c == '[')
    return parse_container(p, c == '{');
  if (c == '"') {
    char *s = parse_string(p);
    if (!s)
      return NULL;
    struct jval *v = new_val(J_STRING);
    v->str = s;
    return v;
  }
  static const char *const words[] = {"true", "false", "null"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(words[i]);
    if ((size_t)(p->e - p->s) >= n && memcmp(p->s, words[i], n) == 0) {
      p->s += n;
      struct jval *v = new_val(i == 2 ? J_NULL : J_BOOL);
      v->boolean = i == 0;
      return v;
    }
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    char buf[64];
    size_t n = 0;
    while (p->s + n < p->e && n + 1 < sizeof(buf) &&
           strchr("0123456789+-.eE", p->s[n]))
      n++;
    memcpy(buf, p->s, n);
    buf[n] = '\0';
    char *end;
    double d = strtod(buf, &end);
    if (end != buf + n)
      return fail(p, "bad number");
    p->s += n;
    struct jval *v = new_val(J_NUMBER);
    v->number = d;
    return v;
  }
  return fail(p, "unexpected character");
}

struct jval *json_parse(const char *s, size_t n, const char **err) {
  struct parser p = {s, s + n, NULL, 0};
  struct jval *v = parse_value(&p);
  if (v) {
    skip_ws(&p);
    if (p.s != p.e) {
      json_free(v);
      v = fail(&p, "text after the value");
    }
  }
  *err = p.err;
  return v;
}

void json_free(struct jval *v) {
  if (!v)
    return;
  for (size_t i = 0; i < v->n; i++) {
    json_free(v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->str);
  free(v);
}

const struct jval *json_get(const struct jval *o, const char *key) {
  if (!o || o->type != J_OBJECT)
    return NULL;
  for (size_t i = 0; i < o->n; i++)
    if (strcmp(o->keys[i], key) == 0)
      return o->items[i];
  return NULL;
}

const char *json_string(const struct jval *v) {
  return v && v->type == J_STRING ? v->str : NULL;
}

double json_number(const struct jval *v, double otherwise) {
  return v && v->type == J_NUMBER ? v->number : otherwise;
}

/* ---- writing ------------------------------------------------------------ */

static size_t utf8_len(const unsigned char *s) {
  size_t k = s[0] >= 0xf0 && s[0] <= 0xf4  ? 4
             : s[0] >= 0xe0 && s[0] < 0xf0 ? 3
             : s[0] >= 0xc2 && s[0] < 0xe0 ? 2
                                           : 0;
  for (size_t i = 1; i < k; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  return k;
}

void json_put_string(FILE *out, const char *s) {
  if (!s) {
    fputs("null", out);
    return;
  }
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\') {
      fputc('\\', out);
      fputc(*c, out);
    } else if (*c < 0x20 || *c == 0x7f) {
      fprintf(out, "\\u%04x", *c);
    } else if (*c < 0x80) {
      fputc(*c, out);
    } else {
      size_t k = utf8_len(c);
      if (!k) {
        fputs("\\ufffd", out);
      } else {
        fwrite(c, 1, k, out);
        c += k - 1;
      }
    }
  }
  fputc('"', out);
}
