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
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "heap.h"
#include "mdebug/access.h"

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

#define READS(p, n, via)                                                       \
  md_access_check(p, n, MDEBUG_ACCESS_INFO(0, false, MD_##via), site)
#define WRITES(p, n, via)                                                      \
  md_access_check(p, n, MDEBUG_ACCESS_INFO(0, true, MD_##via), site)

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
  md_access_check_compare(a, b, SIZE_MAX, MD_VIA_strcmp, site);
  return strcmp(a, b);
}

int __mdebug_checked_strncmp(const char *a, const char *b, size_t n,
                             const struct mdebug_access_site *site) {
  md_access_check_compare(a, b, n, MD_VIA_strncmp, site);
  return strncmp(a, b, n);
}

/* The length comes from formatting once without writing (the program's
 * arguments are read twice; formatting has no side effects but %n, which
 * then writes the same value twice). */
int __mdebug_checked_sprintf(char *dst, const char *format,
                             const struct mdebug_access_site *site, ...) {
  va_list ap;
  va_start(ap, site);
  if (md_heap_covers(dst)) {
    va_list aq;
    va_copy(aq, ap);
    int len = vsnprintf(NULL, 0, format, aq);
    va_end(aq);
    if (len >= 0)
      WRITES(dst, (size_t)len + 1, VIA_sprintf);
  }
  int r = vsprintf(dst, format, ap);
  va_end(ap);
  return r;
}

/* Destinations are checked for the size the call is given, as
 * _FORTIFY_SOURCE does: a buffer smaller than its stated size is a bug
 * even when this call writes less. */
int __mdebug_checked_snprintf(char *dst, size_t n, const char *format,
                              const struct mdebug_access_site *site, ...) {
  va_list ap;
  va_start(ap, site);
  WRITES(dst, n, VIA_snprintf);
  int r = vsnprintf(dst, n, format, ap);
  va_end(ap);
  return r;
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
