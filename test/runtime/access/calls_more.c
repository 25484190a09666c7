// Proves: the other C library calls that write or read caller memory are
// checked at the call: pread, recv, readv and getcwd into a block of 8 for
// 16 bytes (destinations for the size they are given, as _FORTIFY_SOURCE
// does), writev from one, getline given a size larger than its buffer,
// bzero, explicit_bzero, stpcpy, stpncpy, mempcpy, memccpy and vsprintf
// writing past the block, strchrnul reading past it, wcslen and wcscpy of
// an unterminated wide string, wcrtomb one byte past a block. The clean
// twin's buffers are large enough.
// RUN: %mdebug_clang -fmdebug-check-calls -O0 -g %s -o %t
// RUN: %not %t pread < %s 2>&1 | %FileCheck %s --check-prefix=PREAD
// RUN: %not %t recv 2>&1 | %FileCheck %s --check-prefix=RECV
// RUN: %not %t readv < %s 2>&1 | %FileCheck %s --check-prefix=READV
// RUN: %not %t writev 2>&1 | %FileCheck %s --check-prefix=WRITEV
// RUN: %not %t getline < %s 2>&1 | %FileCheck %s --check-prefix=GETLINE
// RUN: %not %t getcwd 2>&1 | %FileCheck %s --check-prefix=GETCWD
// RUN: %not %t bzero 2>&1 | %FileCheck %s --check-prefix=BZERO
// RUN: %not %t explicit_bzero 2>&1 | %FileCheck %s --check-prefix=EXPLICIT_BZERO
// RUN: %not %t stpcpy 2>&1 | %FileCheck %s --check-prefix=STPCPY
// RUN: %not %t stpncpy 2>&1 | %FileCheck %s --check-prefix=STPNCPY
// RUN: %not %t mempcpy 2>&1 | %FileCheck %s --check-prefix=MEMPCPY
// RUN: %not %t memccpy 2>&1 | %FileCheck %s --check-prefix=MEMCCPY
// RUN: %not %t vsprintf 2>&1 | %FileCheck %s --check-prefix=VSPRINTF
// RUN: %not %t strchrnul 2>&1 | %FileCheck %s --check-prefix=STRCHRNUL
// RUN: %not %t wcslen 2>&1 | %FileCheck %s --check-prefix=WCSLEN
// RUN: %not %t wcscpy 2>&1 | %FileCheck %s --check-prefix=WCSCPY
// RUN: %not %t wcrtomb 2>&1 | %FileCheck %s --check-prefix=WCRTOMB
// RUN: %t clean < %s 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <wchar.h>

static int m_is(const char *m, const char *name) { return !strcmp(m, name); }

static int vsp(char *dst, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int r = vsprintf(dst, format, ap);
  // VSPRINTF: written by vsprintf at {{.*}}calls_more.c:[[@LINE-1]]
  va_end(ap);
  return r;
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  int clean = m_is(m, "clean");
  size_t size = clean ? 4096 : 8;
  char *b = malloc(size);
  memset(b, 'a', size);
  b[size - 1] = clean ? '\0' : 'a';
  char *d = malloc(size);
  wchar_t *w = malloc(2 * sizeof(wchar_t));
  w[0] = L'x';
  w[1] = clean ? L'\0' : L'y';
  if (m_is(m, "pread") || clean)
    pread(0, d, 16, 0);
  // PREAD: ERROR: heap buffer overflow
  // PREAD: write of size 16
  // PREAD-NEXT: written by pread at {{.*}}calls_more.c:[[@LINE-3]]
  if (m_is(m, "recv") || clean)
    recv(-1, d, 16, 0);
  // RECV: written by recv at {{.*}}calls_more.c:[[@LINE-1]]
  struct iovec v = {d, 16};
  if (m_is(m, "readv") || clean)
    readv(0, &v, 1);
  // READV: written by readv at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "writev") || clean)
    writev(-1, &v, 1);
  // WRITEV: read by writev at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "getline") || clean) {
    char *line = malloc(size);
    size_t cap = clean ? size : 2 * size;
    getline(&line, &cap, stdin);
    // GETLINE: written by getline at {{.*}}calls_more.c:[[@LINE-1]]
    free(line);
  }
  if (m_is(m, "getcwd") || clean)
    getcwd(d, 16);
  // GETCWD: written by getcwd at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "bzero") || clean)
    bzero(d, size + 1 - clean);
  // BZERO: written by {{bzero|memset}} at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "explicit_bzero") || clean)
    explicit_bzero(d, size + 1 - clean);
  // EXPLICIT_BZERO: written by explicit_bzero at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "stpcpy") || clean)
    stpcpy(d, "0123456789");
  // STPCPY: written by stpcpy at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "stpncpy") || clean)
    stpncpy(d, "0123", 12);
  // STPNCPY: written by stpncpy at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "mempcpy") || clean)
    mempcpy(d, "0123456789", 10);
  // MEMPCPY: written by {{mempcpy|memcpy}} at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "memccpy") || clean)
    memccpy(d, "0123456789", '9', 12);
  // MEMCCPY: written by memccpy at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "vsprintf") || clean)
    vsp(d, "%s-%d", "0123", 4567);
  if (m_is(m, "strchrnul") || clean)
    strchrnul(b, 'z');
  // STRCHRNUL: read by strchrnul at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "wcslen") || clean)
    wcslen(w);
  // WCSLEN: read by wcslen at {{.*}}calls_more.c:[[@LINE-1]]
  if (m_is(m, "wcscpy") || clean) {
    wchar_t *copy = malloc(2 * sizeof(wchar_t));
    wcscpy(copy, clean ? w : L"xyz");
    // WCSCPY: written by wcscpy at {{.*}}calls_more.c:[[@LINE-1]]
    free(copy);
  }
  if (m_is(m, "wcrtomb") || clean) {
    char *one = malloc(1);
    mbstate_t st;
    memset(&st, 0, sizeof(st));
    wcrtomb(one + !clean, L'a', &st);
    // WCRTOMB: write of size 1 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
    // WCRTOMB-NEXT: written by wcrtomb at {{.*}}calls_more.c:[[@LINE-2]]
    free(one);
  }
  free(w);
  free(d);
  free(b);
  return 0; /* a run with errors exits 23 (mdebug's exitcode) */
}
// CLEAN-NOT: mdebug
