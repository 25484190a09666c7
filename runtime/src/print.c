/* print.c - the runtime's own printf subset, formatting into a caller's
 * buffer. Never allocates, never locks, safe in a signal handler; output is
 * always NUL-terminated and silently truncated to the buffer.
 */
#include <string.h>

#include "base.h"
#include "print.h"

struct out {
  char *buf;
  size_t size, len;
};

static void put(struct out *o, char c) {
  if (o->len + 1 < o->size)
    o->buf[o->len] = c;
  o->len++;
}

static void put_padded(struct out *o, const char *s, size_t n, int width,
                       char pad, int left) {
  int fill = width > (int)n ? width - (int)n : 0;
  if (!left)
    while (fill-- > 0)
      put(o, pad);
  for (size_t i = 0; i < n; i++)
    put(o, s[i]);
  if (left)
    while (fill-- > 0)
      put(o, ' ');
}

MD_COLD static void put_number(struct out *o, unsigned long long v,
                               int negative, unsigned base, int width, char pad,
                               int left, const char *prefix) {
  char tmp[32];
  size_t n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  if (negative)
    tmp[n++] = '-';
  for (const char *p = prefix ? prefix + strlen(prefix) : NULL;
       prefix && p-- != prefix;)
    tmp[n++] = *p;
  char out[32];
  for (size_t i = 0; i < n; i++)
    out[i] = tmp[n - 1 - i];
  put_padded(o, out, n, width, pad, left);
}

/* NUL-terminates; the length kept (what did not fit is dropped). */
static size_t finish(struct out *o) {
  if (!o->size)
    return 0;
  size_t n = o->len < o->size ? o->len : o->size - 1;
  o->buf[n] = '\0';
  return n;
}

MD_COLD size_t md_vformat(char *buf, size_t size, const char *fmt, va_list ap) {
  struct out o = {buf, size, 0};
  for (const char *f = fmt; *f; f++) {
    if (*f != '%') {
      put(&o, *f);
      continue;
    }
    f++;
    int left = 0, width = 0, lng = 0;
    char pad = ' ';
    if (*f == '-') {
      left = 1;
      f++;
    }
    if (*f == '0') {
      pad = '0';
      f++;
    }
    while (*f >= '0' && *f <= '9')
      width = width * 10 + (*f++ - '0');
    while (*f == 'l' || *f == 'z') {
      lng = *f == 'z' ? 2 : lng + 1;
      f++;
    }
    switch (*f) {
    case '%':
      put(&o, '%');
      break;
    case 'c':
      put(&o, (char)va_arg(ap, int));
      break;
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s)
        s = "(null)";
      put_padded(&o, s, strlen(s), width, ' ', left);
      break;
    }
    case 'd':
    case 'i': {
      long long v = lng == 0 ? va_arg(ap, int)
                    : lng == 1 ? va_arg(ap, long)
                    : lng == 2 ? (long long)va_arg(ap, size_t)
                               : va_arg(ap, long long);
      unsigned long long m = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
      put_number(&o, m, v < 0, 10, width, pad, left, NULL);
      break;
    }
    case 'u':
    case 'x': {
      unsigned long long v = lng == 0 ? va_arg(ap, unsigned)
                             : lng == 1 ? va_arg(ap, unsigned long)
                             : lng == 2 ? va_arg(ap, size_t)
                                        : va_arg(ap, unsigned long long);
      put_number(&o, v, 0, *f == 'x' ? 16 : 10, width, pad, left, NULL);
      break;
    }
    case 'p':
      put_number(&o, (uintptr_t)va_arg(ap, void *), 0, 16, width, pad, left,
                 "0x");
      break;
    default: /* unknown conversion: print it as is */
      put(&o, '%');
      if (*f)
        put(&o, *f);
      else
        f--;
      break;
    }
  }
  return finish(&o);
}

MD_COLD size_t md_format(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t n = md_vformat(buf, size, fmt, ap);
  va_end(ap);
  return n;
}

/* md_escape, md_escape_controls and md_escape_field: one rule. Control
 * bytes and DEL always; '\\' with ESC_BACKSLASH; '"', '{' and '}' with
 * ESC_FIELD (as \xNN: the delimiters of a heap dump's bt_info). */
enum { ESC_BACKSLASH = 1, ESC_FIELD = 2 };

static size_t escape(char *buf, size_t size, const char *s, size_t n,
                     int what) {
  struct out o = {buf, size, 0};
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char seq[4];
    size_t k = 0;
    bool field = (what & ESC_FIELD) && (c == '"' || c == '{' || c == '}');
    if (c >= 0x20 && c != 0x7f && (c != '\\' || !(what & ESC_BACKSLASH)) &&
        !field) {
      seq[k++] = (char)c;
    } else {
      seq[k++] = '\\';
      if (c == '\\' || c == '\n' || c == '\t' || c == '\r') {
        seq[k++] = c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
      } else {
        seq[k++] = 'x';
        seq[k++] = "0123456789abcdef"[c >> 4];
        seq[k++] = "0123456789abcdef"[c & 15];
      }
    }
    if (o.len + k >= size)
      break; /* never half an escape */
    for (size_t j = 0; j < k; j++)
      put(&o, seq[j]);
  }
  return finish(&o);
}

size_t md_escape(char *buf, size_t size, const char *s, size_t n) {
  return escape(buf, size, s, n, ESC_BACKSLASH);
}

MD_COLD size_t md_escape_controls(char *buf, size_t size, const char *s,
                                  size_t n) {
  return escape(buf, size, s, n, 0);
}

MD_COLD size_t md_escape_field(char *buf, size_t size, const char *s) {
  return escape(buf, size, s, strlen(s), ESC_BACKSLASH | ESC_FIELD);
}

MD_COLD const char *md_escaped(char *buf, size_t size, const char *s) {
  if (!s)
    return NULL;
  md_escape(buf, size, s, strlen(s));
  return buf;
}
