/* libc_checks.c - the checked C library calls: __mdebug_checked_NAME for
 * each MDEBUG_CHECKED(_VA) line of checks.def, which the pass calls in place
 * of the C library's NAME in code built with checked accesses. Each checks
 * the ranges the call will read and write against the blocks they lie in
 * (access.c's md_access_check and friends: a report at the call's line,
 * naming the block), then makes the call itself, unchanged.
 *
 * Runs inside the program's own code, on any thread: never allocates, and
 * never reads more of the program's memory than the call itself will.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "base.h"
#include "access.h"
#include "heap.h"
#include "mdebug/access.h"
#include "options.h"

#define CHECKED_DECLARE(NAME, SIG, RET, PARAMS)                                \
  MD_EXPORT RET __mdebug_checked_##NAME MD_WITH_ACCESS_SITE PARAMS;
#define CHECKED_VA_DECLARE(NAME, SIG, RET, PARAMS)                             \
  MD_EXPORT RET __mdebug_checked_##NAME MD_WITH_ACCESS_SITE_VA PARAMS;
#define MD_WITH_ACCESS_SITE(...)                                               \
  (__VA_ARGS__, const struct mdebug_access_site *site)
#define MD_WITH_ACCESS_SITE_VA(...)                                            \
  (__VA_ARGS__, const struct mdebug_access_site *site, ...)
#define MDEBUG_CHECKED CHECKED_DECLARE
#define MDEBUG_CHECKED_VA CHECKED_VA_DECLARE
#include "mdebug/checks.def"

#define SITE const struct mdebug_access_site *site

/* The heap's ranges, as instrumented code reads them (access.c). */
extern struct mdebug_access_geometry md_access_geo MD_HIDDEN;

/* md_access_check, with the test that most ranges fail kept here: a range
 * that starts outside the heap's ranges (a stack buffer, a literal, a
 * global) needs no call. */
static MD_ALWAYS_INLINE bool in_heap(const void *p) {
  return (uintptr_t)p - md_access_geo.base < md_access_geo.size;
}
static MD_ALWAYS_INLINE bool access_ok(const void *p, size_t n, uint64_t info,
                                       SITE) {
  if (!in_heap(p))
    return true;
  if (md_calls_memo_holds((uintptr_t)p) && n <= ~md_calls_memo.end - (uintptr_t)p)
    return true; /* the block the last call checked */
  return md_access_check(p, n, info, site);
}
#define READS(p, n, via)                                                       \
  access_ok(p, n, MDEBUG_ACCESS_INFO(0, false, MD_##via), site)
#define WRITES(p, n, via)                                                      \
  access_ok(p, n, MDEBUG_ACCESS_INFO(0, true, MD_##via), site)

/* _FORTIFY_SOURCE's entry points in glibc (its headers declare them only
 * in fortified builds). */
extern void *__memcpy_chk(void *, const void *, size_t, size_t);
extern void *__memmove_chk(void *, const void *, size_t, size_t);
extern void *__mempcpy_chk(void *, const void *, size_t, size_t);
extern void *__memset_chk(void *, int, size_t, size_t);
extern char *__strcpy_chk(char *, const char *, size_t);
extern char *__stpcpy_chk(char *, const char *, size_t);
extern char *__strncpy_chk(char *, const char *, size_t, size_t);
extern char *__stpncpy_chk(char *, const char *, size_t, size_t);
extern char *__strcat_chk(char *, const char *, size_t);
extern char *__strncat_chk(char *, const char *, size_t, size_t);
extern int __vsprintf_chk(char *, int, size_t, const char *, va_list);
extern int __vsnprintf_chk(char *, size_t, int, size_t, const char *,
                           va_list);
extern int __vfprintf_chk(FILE *, int, const char *, va_list);
extern int __vdprintf_chk(int, int, const char *, va_list);
extern char *__fgets_chk(char *, size_t, int, FILE *);
extern ssize_t __read_chk(int, void *, size_t, size_t);
extern ssize_t __pread_chk(int, void *, size_t, off_t, size_t);
extern ssize_t __recv_chk(int, void *, size_t, size_t, int);
extern size_t __fread_chk(void *, size_t, size_t, size_t, FILE *);
extern void __explicit_bzero_chk(void *, size_t, size_t);
extern char *__getcwd_chk(char *, size_t, size_t);
extern wchar_t *__wcscpy_chk(wchar_t *, const wchar_t *, size_t);
extern size_t __wcrtomb_chk(char *, wchar_t, mbstate_t *, size_t);

/* ---- what a call reads of a string ---------------------------------------- */

/* `used` for a string the call reads to its end (its terminator included). */
#define WHOLE SIZE_MAX

/* A call read s[0 .. used): those bytes; WHOLE, or any with
 * strict_string_checks, the whole string and its terminator, which must
 * lie in s's block (a string that runs off its block is reported however
 * little of it the call needed). */
static MD_ALWAYS_INLINE void string_read(const char *s, size_t used,
                                         unsigned via, SITE) {
  if (!in_heap(s)) /* a literal, a stack buffer: no block to stay in */
    return;
  if (used == WHOLE || md_opt.strict_string_checks)
    md_access_string_length(s, SIZE_MAX, via, site);
  else if (used)
    access_ok(s, used, MDEBUG_ACCESS_INFO(0, false, via), site);
}

/* The bytes a number's parse read: up to `end`, and the one that stopped
 * it. A parse that converted nothing still read the blanks and the sign
 * before the first byte that is no digit (as AddressSanitizer counts
 * them). */
static void number_read(const char *s, const char *end, unsigned via, SITE) {
  if (end == s) {
    while (isspace((unsigned char)*end))
      end++;
    if (*end == '+' || *end == '-')
      end++;
  }
  string_read(s, (size_t)(end - s) + 1, via, site);
}

/* A call that reads s up to max bytes read s[0 .. used): those bytes; with
 * strict_string_checks, the string up to its terminator or max bytes,
 * whichever comes first (as AddressSanitizer's strict strncmp). */
static void bounded_read(const char *s, size_t used, size_t max, unsigned via,
                         SITE) {
  if (!in_heap(s))
    return;
  if (md_opt.strict_string_checks)
    md_access_string_length(s, max, via, site);
  else if (used)
    access_ok(s, used, MDEBUG_ACCESS_INFO(0, false, via), site);
}

/* The bytes strcmp, strncmp, strcasecmp and strncasecmp read of both
 * strings: up to the first that differs (ignoring case when `fold`) or
 * ends them, at most n. */
static void compare_reads(const char *a, const char *b, size_t n, bool fold,
                          unsigned via, SITE) {
  size_t i = 0;
  while (i < n) {
    unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
    i++;
    if ((fold ? tolower(x) != tolower(y) : x != y) || !x)
      break;
  }
  bounded_read(a, i, n, via, site);
  bounded_read(b, i, n, via, site);
}

/* Every string a format's %s (and %ls) reads, and the format itself.
 * Walks the conversions as the C library will, taking each argument of
 * its type from a copy of `args`; stops at what it cannot follow (a
 * positional argument, %n$, or an unknown conversion). */
/* The last format outside the heap this thread found with no string
 * conversion: a program that formats numbers in a loop (Lua's tostring,
 * snprintf(buf, n, "%.14g", x)) pays a compare per call, not a scan. A
 * format is a literal but for the rare program that builds one in a
 * buffer of its own and reuses it. */
static __thread const char *plain_format
    __attribute__((tls_model("initial-exec")));

static void format_reads(const char *format, va_list args, unsigned via,
                         SITE) {
  if (format == plain_format)
    return;
  string_read(format, WHOLE, via, site);
  if (!strpbrk(format, "sS")) { /* no string conversion: nothing to follow */
    if (!in_heap(format))
      plain_format = format;
    return;
  }
  va_list ap;
  va_copy(ap, args);
  for (const char *p = format; *p; p++) {
    if (*p != '%')
      continue;
    if (*++p == '%')
      continue;
    const char *digits = p;
    while (isdigit((unsigned char)*digits))
      digits++;
    if (*digits == '$')
      break;
    while (*p && strchr("-+ #0'I", *p))
      p++;
    if (*p == '*') {
      (void)va_arg(ap, int);
      p++;
    }
    while (isdigit((unsigned char)*p))
      p++;
    size_t precision = SIZE_MAX;
    if (*p == '.') {
      p++;
      if (*p == '*') {
        int given = va_arg(ap, int);
        precision = given < 0 ? SIZE_MAX : (size_t)given;
        p++;
      } else {
        precision = 0;
        while (isdigit((unsigned char)*p))
          precision = precision * 10 + (size_t)(*p++ - '0');
      }
    }
    bool wide = false, long_double = false;
    size_t halves = 0; /* h, hh: what %n stores */
    for (;; p++) {
      if (*p == 'l' || *p == 'j' || *p == 'z' || *p == 't' || *p == 'q')
        wide = true;
      else if (*p == 'L')
        long_double = wide = true;
      else if (*p == 'h')
        halves++;
      else
        break;
    }
    switch (*p) {
    case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
      if (wide)
        (void)va_arg(ap, long);
      else
        (void)va_arg(ap, int);
      break;
    case 'c': case 'C':
      (void)va_arg(ap, int);
      break;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a':
    case 'A':
      if (long_double)
        (void)va_arg(ap, long double);
      else
        (void)va_arg(ap, double);
      break;
    case 'p':
      (void)va_arg(ap, void *);
      break;
    case 'n': {
      void *count = va_arg(ap, void *);
      size_t n = wide ? 8 : halves == 1 ? 2 : halves ? 1 : sizeof(int);
      access_ok(count, n, MDEBUG_ACCESS_INFO(0, true, via), site);
      break;
    }
    case 'S':
      wide = true;
      /* fall through */
    case 's': {
      const void *str = va_arg(ap, const void *);
      if (!str || !in_heap(str))
        break;
      if (!wide) {
        md_access_string_length(str, precision, via, site);
        break;
      }
      size_t chars = precision == SIZE_MAX ? wcslen(str) + 1
                                           : wcsnlen(str, precision);
      access_ok(str, chars * sizeof(wchar_t),
                      MDEBUG_ACCESS_INFO(0, false, via), site);
      break;
    }
    case 'm':
      break;
    default:
      goto done;
    }
  }
done:
  va_end(ap);
}

/* The sprintf family's destination: the bytes the call will write (at
 * most `room`, snprintf's size; SIZE_MAX for sprintf), found by formatting
 * once without writing (the program's arguments are read twice;
 * formatting has no side effects but %n, which then writes the same value
 * twice). As AddressSanitizer checks it: snprintf(buf, 1000, "abc") into a
 * buffer of 4 is fine. Only for a destination in mdebug's heap. */
static bool format_writes(char *dst, size_t room, const char *format,
                          va_list args, unsigned via, SITE) {
  if (!room || !md_heap_covers(dst))
    return true;
  va_list aq;
  va_copy(aq, args);
  int len = vsnprintf(NULL, 0, format, aq);
  va_end(aq);
  if (len < 0)
    return true;
  size_t bytes = (size_t)len < room ? (size_t)len + 1 : room;
  return access_ok(dst, bytes, MDEBUG_ACCESS_INFO(0, true, via), site);
}

void *__mdebug_checked_memcpy(void *dst, const void *src, size_t n,
                              const struct mdebug_access_site *site) {
  WRITES(dst, n, VIA_memcpy);
  READS(src, n, VIA_memcpy);
  return memcpy(dst, src, n);
}

void *__mdebug_checked_memmove(void *dst, const void *src, size_t n,
                               const struct mdebug_access_site *site) {
  WRITES(dst, n, VIA_memmove);
  READS(src, n, VIA_memmove);
  return memmove(dst, src, n);
}

void *__mdebug_checked_memset(void *dst, int c, size_t n,
                              const struct mdebug_access_site *site) {
  WRITES(dst, n, VIA_memset);
  return memset(dst, c, n);
}

/* As AddressSanitizer's strict_memcmp: all n bytes of both, whatever the
 * first difference. */
int __mdebug_checked_memcmp(const void *a, const void *b, size_t n,
                            const struct mdebug_access_site *site) {
  READS(a, n, VIA_memcmp);
  READS(b, n, VIA_memcmp);
  return memcmp(a, b, n);
}

char *__mdebug_checked_strcpy(char *dst, const char *src,
                              const struct mdebug_access_site *site) {
  size_t n = md_access_string_length(src, SIZE_MAX, MD_VIA_strcpy, site);
  WRITES(dst, n + 1, VIA_strcpy);
  return strcpy(dst, src);
}

/* strncpy writes all n bytes (padding with zeros). */
char *__mdebug_checked_strncpy(char *dst, const char *src, size_t n,
                               const struct mdebug_access_site *site) {
  md_access_string_length(src, n, MD_VIA_strncpy, site);
  WRITES(dst, n, VIA_strncpy);
  return strncpy(dst, src, n);
}

char *__mdebug_checked_strcat(char *dst, const char *src,
                              const struct mdebug_access_site *site) {
  size_t d = md_access_string_length(dst, SIZE_MAX, MD_VIA_strcat, site);
  size_t s = md_access_string_length(src, SIZE_MAX, MD_VIA_strcat, site);
  WRITES(dst + d, s + 1, VIA_strcat);
  return strcat(dst, src);
}

char *__mdebug_checked_strncat(char *dst, const char *src, size_t n,
                               const struct mdebug_access_site *site) {
  size_t d = md_access_string_length(dst, SIZE_MAX, MD_VIA_strncat, site);
  size_t s = md_access_string_length(src, n, MD_VIA_strncat, site);
  WRITES(dst + d, s + 1, VIA_strncat);
  return strncat(dst, src, n);
}

size_t __mdebug_checked_strlen(const char *s,
                               const struct mdebug_access_site *site) {
  return md_access_string_length(s, SIZE_MAX, MD_VIA_strlen, site);
}

size_t __mdebug_checked_strnlen(const char *s, size_t n,
                                const struct mdebug_access_site *site) {
  return md_access_string_length(s, n, MD_VIA_strnlen, site);
}

int __mdebug_checked_strcmp(const char *a, const char *b,
                            const struct mdebug_access_site *site) {
  compare_reads(a, b, SIZE_MAX, false, MD_VIA_strcmp, site);
  return strcmp(a, b);
}

int __mdebug_checked_strncmp(const char *a, const char *b, size_t n,
                             const struct mdebug_access_site *site) {
  compare_reads(a, b, n, false, MD_VIA_strncmp, site);
  return strncmp(a, b, n);
}

char *__mdebug_checked_fgets(char *s, int n, FILE *stream,
                             const struct mdebug_access_site *site) {
  if (n > 0)
    WRITES(s, (size_t)n, VIA_fgets);
  return fgets(s, n, stream);
}

ssize_t __mdebug_checked_read(int fd, void *buf, size_t n,
                              const struct mdebug_access_site *site) {
  WRITES(buf, n, VIA_read);
  return read(fd, buf, n);
}

size_t __mdebug_checked_fread(void *buf, size_t size, size_t n, FILE *stream,
                              const struct mdebug_access_site *site) {
  size_t total;
  if (__builtin_mul_overflow(size, n, &total))
    total = SIZE_MAX;
  WRITES(buf, total, VIA_fread);
  return fread(buf, size, n, stream);
}

/* ---- searching and comparing ---------------------------------------------- */

char *__mdebug_checked_strchr(const char *s, int c, SITE) {
  char *r = strchr(s, c);
  string_read(s, r ? (size_t)(r - s) + 1 : WHOLE, MD_VIA_strchr, site);
  return r;
}

char *__mdebug_checked_strrchr(const char *s, int c, SITE) {
  string_read(s, WHOLE, MD_VIA_strrchr, site);
  return strrchr(s, c);
}

MD_COLD char *__mdebug_checked_strchrnul(const char *s, int c, SITE) {
  char *r = strchrnul(s, c);
  string_read(s, *r ? (size_t)(r - s) + 1 : WHOLE, MD_VIA_strchrnul, site);
  return r;
}

/* What strstr and strcasestr read of the haystack: up to the end of the
 * match, or all of it. */
static void search_reads(const char *haystack, const char *needle,
                         const char *found, unsigned via, SITE) {
  string_read(needle, WHOLE, via, site);
  string_read(haystack,
              found ? (size_t)(found - haystack) + strlen(needle) : WHOLE, via,
              site);
}

char *__mdebug_checked_strstr(const char *haystack, const char *needle, SITE) {
  char *r = strstr(haystack, needle);
  search_reads(haystack, needle, r, MD_VIA_strstr, site);
  return r;
}

MD_COLD char *__mdebug_checked_strcasestr(const char *haystack,
                                          const char *needle, SITE) {
  char *r = strcasestr(haystack, needle);
  search_reads(haystack, needle, r, MD_VIA_strcasestr, site);
  return r;
}

size_t __mdebug_checked_strspn(const char *s, const char *accept, SITE) {
  size_t r = strspn(s, accept);
  string_read(accept, WHOLE, MD_VIA_strspn, site);
  string_read(s, r + 1, MD_VIA_strspn, site);
  return r;
}

size_t __mdebug_checked_strcspn(const char *s, const char *reject, SITE) {
  size_t r = strcspn(s, reject);
  string_read(reject, WHOLE, MD_VIA_strcspn, site);
  string_read(s, r + 1, MD_VIA_strcspn, site);
  return r;
}

char *__mdebug_checked_strpbrk(const char *s, const char *accept, SITE) {
  char *r = strpbrk(s, accept);
  string_read(accept, WHOLE, MD_VIA_strpbrk, site);
  string_read(s, r ? (size_t)(r - s) + 1 : WHOLE, MD_VIA_strpbrk, site);
  return r;
}

void *__mdebug_checked_memchr(const void *s, int c, size_t n, SITE) {
  void *r = memchr(s, c, n);
  READS(s, r ? (size_t)((const char *)r - (const char *)s) + 1 : n,
        VIA_memchr);
  return r;
}

MD_COLD void *__mdebug_checked_memrchr(const void *s, int c, size_t n, SITE) {
  READS(s, n, VIA_memrchr);
  return memrchr(s, c, n);
}

MD_COLD void *__mdebug_checked_memmem(const void *haystack, size_t hn,
                                      const void *needle, size_t nn, SITE) {
  READS(haystack, hn, VIA_memmem);
  READS(needle, nn, VIA_memmem);
  return memmem(haystack, hn, needle, nn);
}

int __mdebug_checked_bcmp(const void *a, const void *b, size_t n, SITE) {
  READS(a, n, VIA_bcmp);
  READS(b, n, VIA_bcmp);
  return bcmp(a, b, n);
}

int __mdebug_checked_strcasecmp(const char *a, const char *b, SITE) {
  compare_reads(a, b, SIZE_MAX, true, MD_VIA_strcasecmp, site);
  return strcasecmp(a, b);
}

int __mdebug_checked_strncasecmp(const char *a, const char *b, size_t n,
                                 SITE) {
  compare_reads(a, b, n, true, MD_VIA_strncasecmp, site);
  return strncasecmp(a, b, n);
}

/* ---- copying --------------------------------------------------------------- */

char *__mdebug_checked_stpcpy(char *dst, const char *src, SITE) {
  size_t n = md_access_string_length(src, SIZE_MAX, MD_VIA_stpcpy, site);
  WRITES(dst, n + 1, VIA_stpcpy);
  return stpcpy(dst, src);
}

char *__mdebug_checked_stpncpy(char *dst, const char *src, size_t n, SITE) {
  md_access_string_length(src, n, MD_VIA_stpncpy, site);
  WRITES(dst, n, VIA_stpncpy);
  return stpncpy(dst, src, n);
}

void *__mdebug_checked_mempcpy(void *dst, const void *src, size_t n, SITE) {
  WRITES(dst, n, VIA_mempcpy);
  READS(src, n, VIA_mempcpy);
  return mempcpy(dst, src, n);
}

MD_COLD void *__mdebug_checked_memccpy(void *dst, const void *src, int c,
                                       size_t n, SITE) {
  const char *stop = memchr(src, c, n);
  size_t m = stop ? (size_t)(stop - (const char *)src) + 1 : n;
  READS(src, m, VIA_memccpy);
  WRITES(dst, m, VIA_memccpy);
  return memccpy(dst, src, c, n);
}

void __mdebug_checked_bzero(void *dst, size_t n, SITE) {
  WRITES(dst, n, VIA_bzero);
  memset(dst, 0, n);
}

MD_COLD void __mdebug_checked_explicit_bzero(void *dst, size_t n, SITE) {
  WRITES(dst, n, VIA_explicit_bzero);
  explicit_bzero(dst, n);
}

/* ---- conversions ----------------------------------------------------------- */

int __mdebug_checked_atoi(const char *s, SITE) {
  char *end;
  long r = strtol(s, &end, 10);
  number_read(s, end, MD_VIA_atoi, site);
  return (int)r;
}

long __mdebug_checked_atol(const char *s, SITE) {
  char *end;
  long r = strtol(s, &end, 10);
  number_read(s, end, MD_VIA_atol, site);
  return r;
}

long long __mdebug_checked_atoll(const char *s, SITE) {
  char *end;
  long long r = strtoll(s, &end, 10);
  number_read(s, end, MD_VIA_atoll, site);
  return r;
}

double __mdebug_checked_atof(const char *s, SITE) {
  char *end;
  double r = strtod(s, &end);
  number_read(s, end, MD_VIA_atof, site);
  return r;
}

/* The strto* family: the parse into a local end pointer, then the
 * program's (a write of one pointer). */
#define STRTO(NAME, TYPE, PARAMS, ARGS)                                        \
  TYPE __mdebug_checked_##NAME PARAMS {                                        \
    char *stop;                                                                \
    TYPE r = NAME ARGS;                                                        \
    number_read(s, stop, MD_VIA_##NAME, site);                                 \
    if (end) {                                                                 \
      WRITES(end, sizeof(*end), VIA_##NAME);                                   \
      *end = stop;                                                             \
    }                                                                          \
    return r;                                                                  \
  }
STRTO(strtol, long, (const char *s, char **end, int base, SITE),
      (s, &stop, base))
STRTO(strtoul, unsigned long, (const char *s, char **end, int base, SITE),
      (s, &stop, base))
STRTO(strtoll, long long, (const char *s, char **end, int base, SITE),
      (s, &stop, base))
STRTO(strtoull, unsigned long long,
      (const char *s, char **end, int base, SITE), (s, &stop, base))
STRTO(strtod, double, (const char *s, char **end, SITE), (s, &stop))
STRTO(strtof, float, (const char *s, char **end, SITE), (s, &stop))

/* ---- output ---------------------------------------------------------------- */

int __mdebug_checked_puts(const char *s, SITE) {
  string_read(s, WHOLE, MD_VIA_puts, site);
  return puts(s);
}

int __mdebug_checked_fputs(const char *s, FILE *stream, SITE) {
  string_read(s, WHOLE, MD_VIA_fputs, site);
  return fputs(s, stream);
}

/* size * n, or SIZE_MAX when it overflows (the call fails then). */
static size_t product(size_t size, size_t n) {
  size_t total;
  return __builtin_mul_overflow(size, n, &total) ? SIZE_MAX : total;
}

size_t __mdebug_checked_fwrite(const void *buf, size_t size, size_t n,
                               FILE *stream, SITE) {
  READS(buf, product(size, n), VIA_fwrite);
  return fwrite(buf, size, n, stream);
}

ssize_t __mdebug_checked_write(int fd, const void *buf, size_t n, SITE) {
  READS(buf, n, VIA_write);
  return write(fd, buf, n);
}

MD_COLD ssize_t __mdebug_checked_send(int fd, const void *buf, size_t n,
                                      int flags, SITE) {
  READS(buf, n, VIA_send);
  return send(fd, buf, n, flags);
}

/* ---- input ----------------------------------------------------------------- */

ssize_t __mdebug_checked_pread(int fd, void *buf, size_t n, off_t offset,
                               SITE) {
  WRITES(buf, n, VIA_pread);
  return pread(fd, buf, n, offset);
}

MD_COLD ssize_t __mdebug_checked_recv(int fd, void *buf, size_t n, int flags,
                                      SITE) {
  WRITES(buf, n, VIA_recv);
  return recv(fd, buf, n, flags);
}

/* The vector itself, then each buffer for its whole length. */
MD_COLD static void vector_access(const struct iovec *iov, int count,
                                  bool write, unsigned via, SITE) {
  if (count <= 0)
    return;
  if (!access_ok(iov, (size_t)count * sizeof(*iov),
                       MDEBUG_ACCESS_INFO(0, false, via), site))
    return;
  for (int i = 0; i < count; i++)
    access_ok(iov[i].iov_base, iov[i].iov_len,
                    MDEBUG_ACCESS_INFO(0, write, via), site);
}

MD_COLD ssize_t __mdebug_checked_readv(int fd, const struct iovec *iov,
                                       int count, SITE) {
  vector_access(iov, count, true, MD_VIA_readv, site);
  return readv(fd, iov, count);
}

MD_COLD ssize_t __mdebug_checked_writev(int fd, const struct iovec *iov,
                                        int count, SITE) {
  vector_access(iov, count, false, MD_VIA_writev, site);
  return writev(fd, iov, count);
}

/* The buffer the program hands getline must hold the size it states. */
ssize_t __mdebug_checked_getline(char **line, size_t *n, FILE *stream,
                                 SITE) {
  if (line && n && *line)
    WRITES(*line, *n, VIA_getline);
  return getline(line, n, stream);
}

MD_COLD char *__mdebug_checked_getcwd(char *buf, size_t n, SITE) {
  if (buf)
    WRITES(buf, n, VIA_getcwd);
  return getcwd(buf, n);
}

/* ---- wide characters ------------------------------------------------------- */

MD_COLD static size_t wide_read(const wchar_t *s, unsigned via, SITE) {
  size_t n = wcslen(s);
  access_ok(s, (n + 1) * sizeof(wchar_t),
                  MDEBUG_ACCESS_INFO(0, false, via), site);
  return n;
}

MD_COLD size_t __mdebug_checked_wcslen(const wchar_t *s, SITE) {
  return wide_read(s, MD_VIA_wcslen, site);
}

MD_COLD wchar_t *__mdebug_checked_wcscpy(wchar_t *dst, const wchar_t *src,
                                         SITE) {
  size_t n = wide_read(src, MD_VIA_wcscpy, site);
  WRITES(dst, (n + 1) * sizeof(wchar_t), VIA_wcscpy);
  return wcscpy(dst, src);
}

/* How many bytes wcrtomb will write for wc: converted once into a buffer
 * of its own, from a copy of the state (the call itself then converts
 * from the state it was given). true when dst can take them. */
MD_COLD static bool multibyte_writes(char *dst, wchar_t wc,
                                     const mbstate_t *state, unsigned via,
                                     SITE) {
  mbstate_t probe;
  if (state)
    probe = *state;
  else
    memset(&probe, 0, sizeof(probe));
  char bytes[MB_LEN_MAX];
  size_t r = wcrtomb(bytes, wc, &probe);
  return r == (size_t)-1 ||
         access_ok(dst, r, MDEBUG_ACCESS_INFO(0, true, via), site);
}

MD_COLD size_t __mdebug_checked_wcrtomb(char *dst, wchar_t wc, mbstate_t *state,
                                        SITE) {
  if (dst)
    multibyte_writes(dst, wc, state, MD_VIA_wcrtomb, site);
  return wcrtomb(dst, wc, state);
}

/* ---- _FORTIFY_SOURCE's forms ----------------------------------------------- */
/* Each checks as its plain form does. When that check fails (reported, now
 * or earlier at the same call), the plain form makes the call, so the
 * program goes on after mdebug's report as it does without fortification;
 * otherwise the fortified form does, and glibc still checks what mdebug
 * cannot see (an overflow of a member inside its block, of a stack
 * buffer). */

void *__mdebug_checked___memcpy_chk(void *dst, const void *src, size_t n,
                                    size_t room, SITE) {
  bool fine = WRITES(dst, n, VIA___memcpy_chk);
  fine &= READS(src, n, VIA___memcpy_chk);
  return fine ? __memcpy_chk(dst, src, n, room) : memcpy(dst, src, n);
}

void *__mdebug_checked___memmove_chk(void *dst, const void *src, size_t n,
                                     size_t room, SITE) {
  bool fine = WRITES(dst, n, VIA___memmove_chk);
  fine &= READS(src, n, VIA___memmove_chk);
  return fine ? __memmove_chk(dst, src, n, room) : memmove(dst, src, n);
}

void *__mdebug_checked___mempcpy_chk(void *dst, const void *src, size_t n,
                                     size_t room, SITE) {
  bool fine = WRITES(dst, n, VIA___mempcpy_chk);
  fine &= READS(src, n, VIA___mempcpy_chk);
  return fine ? __mempcpy_chk(dst, src, n, room) : mempcpy(dst, src, n);
}

void *__mdebug_checked___memset_chk(void *dst, int c, size_t n, size_t room,
                                    SITE) {
  return WRITES(dst, n, VIA___memset_chk) ? __memset_chk(dst, c, n, room)
                                          : memset(dst, c, n);
}

char *__mdebug_checked___strcpy_chk(char *dst, const char *src, size_t room,
                                    SITE) {
  size_t n = md_access_string_length(src, SIZE_MAX, MD_VIA___strcpy_chk, site);
  return WRITES(dst, n + 1, VIA___strcpy_chk) ? __strcpy_chk(dst, src, room)
                                              : strcpy(dst, src);
}

char *__mdebug_checked___stpcpy_chk(char *dst, const char *src, size_t room,
                                    SITE) {
  size_t n = md_access_string_length(src, SIZE_MAX, MD_VIA___stpcpy_chk, site);
  return WRITES(dst, n + 1, VIA___stpcpy_chk) ? __stpcpy_chk(dst, src, room)
                                              : stpcpy(dst, src);
}

char *__mdebug_checked___strncpy_chk(char *dst, const char *src, size_t n,
                                     size_t room, SITE) {
  md_access_string_length(src, n, MD_VIA___strncpy_chk, site);
  return WRITES(dst, n, VIA___strncpy_chk) ? __strncpy_chk(dst, src, n, room)
                                           : strncpy(dst, src, n);
}

char *__mdebug_checked___stpncpy_chk(char *dst, const char *src, size_t n,
                                     size_t room, SITE) {
  md_access_string_length(src, n, MD_VIA___stpncpy_chk, site);
  return WRITES(dst, n, VIA___stpncpy_chk) ? __stpncpy_chk(dst, src, n, room)
                                           : stpncpy(dst, src, n);
}

char *__mdebug_checked___strcat_chk(char *dst, const char *src, size_t room,
                                    SITE) {
  size_t d = md_access_string_length(dst, SIZE_MAX, MD_VIA___strcat_chk, site);
  size_t s = md_access_string_length(src, SIZE_MAX, MD_VIA___strcat_chk, site);
  return WRITES(dst + d, s + 1, VIA___strcat_chk)
             ? __strcat_chk(dst, src, room)
             : strcat(dst, src);
}

char *__mdebug_checked___strncat_chk(char *dst, const char *src, size_t n,
                                     size_t room, SITE) {
  size_t d = md_access_string_length(dst, SIZE_MAX, MD_VIA___strncat_chk, site);
  size_t s = md_access_string_length(src, n, MD_VIA___strncat_chk, site);
  return WRITES(dst + d, s + 1, VIA___strncat_chk)
             ? __strncat_chk(dst, src, n, room)
             : strncat(dst, src, n);
}

char *__mdebug_checked___fgets_chk(char *s, size_t room, int n, FILE *stream,
                                   SITE) {
  if (n > 0 && !WRITES(s, (size_t)n, VIA___fgets_chk))
    return fgets(s, n, stream);
  return __fgets_chk(s, room, n, stream);
}

ssize_t __mdebug_checked___read_chk(int fd, void *buf, size_t n, size_t room,
                                    SITE) {
  return WRITES(buf, n, VIA___read_chk) ? __read_chk(fd, buf, n, room)
                                        : read(fd, buf, n);
}

ssize_t __mdebug_checked___pread_chk(int fd, void *buf, size_t n, off_t offset,
                                     size_t room, SITE) {
  return WRITES(buf, n, VIA___pread_chk) ? __pread_chk(fd, buf, n, offset, room)
                                         : pread(fd, buf, n, offset);
}

MD_COLD ssize_t __mdebug_checked___recv_chk(int fd, void *buf, size_t n,
                                            size_t room, int flags, SITE) {
  return WRITES(buf, n, VIA___recv_chk) ? __recv_chk(fd, buf, n, room, flags)
                                        : recv(fd, buf, n, flags);
}

size_t __mdebug_checked___fread_chk(void *buf, size_t room, size_t size,
                                    size_t n, FILE *stream, SITE) {
  return WRITES(buf, product(size, n), VIA___fread_chk)
             ? __fread_chk(buf, room, size, n, stream)
             : fread(buf, size, n, stream);
}

MD_COLD void __mdebug_checked___explicit_bzero_chk(void *dst, size_t n,
                                                   size_t room, SITE) {
  if (WRITES(dst, n, VIA___explicit_bzero_chk))
    __explicit_bzero_chk(dst, n, room);
  else
    explicit_bzero(dst, n);
}

MD_COLD char *__mdebug_checked___getcwd_chk(char *buf, size_t n, size_t room,
                                            SITE) {
  if (buf && !WRITES(buf, n, VIA___getcwd_chk))
    return getcwd(buf, n);
  return __getcwd_chk(buf, n, room);
}

MD_COLD wchar_t *__mdebug_checked___wcscpy_chk(wchar_t *dst, const wchar_t *src,
                                               size_t room, SITE) {
  size_t n = wide_read(src, MD_VIA___wcscpy_chk, site);
  return WRITES(dst, (n + 1) * sizeof(wchar_t), VIA___wcscpy_chk)
             ? __wcscpy_chk(dst, src, room)
             : wcscpy(dst, src);
}

MD_COLD size_t __mdebug_checked___wcrtomb_chk(char *dst, wchar_t wc,
                                              mbstate_t *state, size_t room,
                                              SITE) {
  if (dst && !multibyte_writes(dst, wc, state, MD_VIA___wcrtomb_chk, site))
    return wcrtomb(dst, wc, state);
  return __wcrtomb_chk(dst, wc, state, room);
}

/* ---- sockets with addresses, results stored through a pointer ------------- */

MD_COLD ssize_t __mdebug_checked_recvfrom(int fd, void *buf, size_t n,
                                          int flags, struct sockaddr *from,
                                          socklen_t *fromlen, SITE) {
  WRITES(buf, n, VIA_recvfrom);
  if (from && fromlen)
    WRITES(from, *fromlen, VIA_recvfrom);
  return recvfrom(fd, buf, n, flags, from, fromlen);
}

MD_COLD ssize_t __mdebug_checked_sendto(int fd, const void *buf, size_t n,
                                        int flags, const struct sockaddr *to,
                                        socklen_t tolen, SITE) {
  READS(buf, n, VIA_sendto);
  if (to)
    READS(to, tolen, VIA_sendto);
  return sendto(fd, buf, n, flags, to, tolen);
}

MD_COLD double __mdebug_checked_frexp(double x, int *exp, SITE) {
  WRITES(exp, sizeof(*exp), VIA_frexp);
  return frexp(x, exp);
}

time_t __mdebug_checked_time(time_t *t, SITE) {
  if (t)
    WRITES(t, sizeof(*t), VIA_time);
  return time(t);
}

/* ---- the printf family ------------------------------------------------------ */
/* Each checks its format's string arguments (and %n stores) and the bytes
 * it writes into a buffer; a variadic form passes its arguments to the
 * v-form's checks, under its own name. A fortified form reported goes on
 * unfortified, as the others above. */

static int checked_vfprintf(FILE *stream, const char *format, va_list ap,
                            unsigned via, SITE) {
  format_reads(format, ap, via, site);
  return vfprintf(stream, format, ap);
}

static int checked_vdprintf(int fd, const char *format, va_list ap,
                            unsigned via, SITE) {
  format_reads(format, ap, via, site);
  return vdprintf(fd, format, ap);
}

static int checked_vsprintf(char *dst, const char *format, va_list ap,
                            unsigned via, SITE) {
  format_reads(format, ap, via, site);
  format_writes(dst, SIZE_MAX, format, ap, via, site);
  return vsprintf(dst, format, ap);
}

static int checked_vsnprintf(char *dst, size_t n, const char *format,
                             va_list ap, unsigned via, SITE) {
  format_reads(format, ap, via, site);
  format_writes(dst, n, format, ap, via, site);
  return vsnprintf(dst, n, format, ap);
}

static int checked_vsprintf_chk(char *dst, int flag, size_t room,
                                const char *format, va_list ap, unsigned via,
                                SITE) {
  format_reads(format, ap, via, site);
  return format_writes(dst, SIZE_MAX, format, ap, via, site)
             ? __vsprintf_chk(dst, flag, room, format, ap)
             : vsprintf(dst, format, ap);
}

static int checked_vsnprintf_chk(char *dst, size_t n, int flag, size_t room,
                                 const char *format, va_list ap, unsigned via,
                                 SITE) {
  format_reads(format, ap, via, site);
  return format_writes(dst, n, format, ap, via, site)
             ? __vsnprintf_chk(dst, n, flag, room, format, ap)
             : vsnprintf(dst, n, format, ap);
}

static int checked_vfprintf_chk(FILE *stream, int flag, const char *format,
                                va_list ap, unsigned via, SITE) {
  format_reads(format, ap, via, site);
  return __vfprintf_chk(stream, flag, format, ap);
}

static int checked_vdprintf_chk(int fd, int flag, const char *format,
                                va_list ap, unsigned via, SITE) {
  format_reads(format, ap, via, site);
  return __vdprintf_chk(fd, flag, format, ap);
}

/* A variadic form: its arguments, to CALL (which names them `ap`). */
#define VARIADIC(NAME, PARAMS, CALL)                                           \
  int __mdebug_checked_##NAME PARAMS {                                         \
    va_list ap;                                                                \
    va_start(ap, site);                                                        \
    int r = CALL;                                                              \
    va_end(ap);                                                                \
    return r;                                                                  \
  }

VARIADIC(printf, (const char *format, SITE, ...),
         checked_vfprintf(stdout, format, ap, MD_VIA_printf, site))
VARIADIC(fprintf, (FILE *stream, const char *format, SITE, ...),
         checked_vfprintf(stream, format, ap, MD_VIA_fprintf, site))
VARIADIC(dprintf, (int fd, const char *format, SITE, ...),
         checked_vdprintf(fd, format, ap, MD_VIA_dprintf, site))
VARIADIC(sprintf, (char *dst, const char *format, SITE, ...),
         checked_vsprintf(dst, format, ap, MD_VIA_sprintf, site))
VARIADIC(snprintf, (char *dst, size_t n, const char *format, SITE, ...),
         checked_vsnprintf(dst, n, format, ap, MD_VIA_snprintf, site))
VARIADIC(__printf_chk, (int flag, const char *format, SITE, ...),
         checked_vfprintf_chk(stdout, flag, format, ap, MD_VIA___printf_chk,
                              site))
VARIADIC(__fprintf_chk, (FILE *stream, int flag, const char *format, SITE, ...),
         checked_vfprintf_chk(stream, flag, format, ap, MD_VIA___fprintf_chk,
                              site))
VARIADIC(__dprintf_chk, (int fd, int flag, const char *format, SITE, ...),
         checked_vdprintf_chk(fd, flag, format, ap, MD_VIA___dprintf_chk, site))
VARIADIC(__sprintf_chk,
         (char *dst, int flag, size_t room, const char *format, SITE, ...),
         checked_vsprintf_chk(dst, flag, room, format, ap, MD_VIA___sprintf_chk,
                              site))
VARIADIC(__snprintf_chk,
         (char *dst, size_t n, int flag, size_t room, const char *format, SITE,
          ...),
         checked_vsnprintf_chk(dst, n, flag, room, format, ap,
                               MD_VIA___snprintf_chk, site))

int __mdebug_checked_vprintf(const char *format, va_list ap, SITE) {
  return checked_vfprintf(stdout, format, ap, MD_VIA_vprintf, site);
}

int __mdebug_checked_vfprintf(FILE *stream, const char *format, va_list ap,
                              SITE) {
  return checked_vfprintf(stream, format, ap, MD_VIA_vfprintf, site);
}

int __mdebug_checked_vsprintf(char *dst, const char *format, va_list ap,
                              SITE) {
  return checked_vsprintf(dst, format, ap, MD_VIA_vsprintf, site);
}

int __mdebug_checked_vsnprintf(char *dst, size_t n, const char *format,
                               va_list ap, SITE) {
  return checked_vsnprintf(dst, n, format, ap, MD_VIA_vsnprintf, site);
}

int __mdebug_checked___vprintf_chk(int flag, const char *format, va_list ap,
                                   SITE) {
  return checked_vfprintf_chk(stdout, flag, format, ap, MD_VIA___vprintf_chk,
                              site);
}

int __mdebug_checked___vfprintf_chk(FILE *stream, int flag,
                                    const char *format, va_list ap, SITE) {
  return checked_vfprintf_chk(stream, flag, format, ap,
                              MD_VIA___vfprintf_chk, site);
}

int __mdebug_checked___vsprintf_chk(char *dst, int flag, size_t room,
                                    const char *format, va_list ap, SITE) {
  return checked_vsprintf_chk(dst, flag, room, format, ap,
                              MD_VIA___vsprintf_chk, site);
}

int __mdebug_checked___vsnprintf_chk(char *dst, size_t n, int flag,
                                     size_t room, const char *format,
                                     va_list ap, SITE) {
  return checked_vsnprintf_chk(dst, n, flag, room, format, ap,
                               MD_VIA___vsnprintf_chk, site);
}
