// Proves: in a build with _FORTIFY_SOURCE (Debian builds everything with
// it), glibc's checked forms (__memcpy_chk, __strcpy_chk, __strcat_chk,
// __sprintf_chk, __snprintf_chk, __printf_chk, __fgets_chk, __read_chk,
// __fread_chk) are checked as their plain forms: an overflow of a heap
// block is mdebug's report, at the program's own line (not the line of
// glibc's inline wrapper) and naming the block, and the program goes on
// instead of dying in glibc's "buffer overflow detected" abort. (Clang
// gives glibc's headers no size for a block mdebug allocated, so some
// calls reach the checks as their plain forms: checked as such.) glibc's
// own check still guards what mdebug cannot see: a stack buffer overflowed
// through __memcpy_chk still aborts. The clean twin passes sizes that fit.
// RUN: %mdebug_clang -fmdebug-check-calls -O1 -D_FORTIFY_SOURCE=2 -g %s -o %t
// RUN: %mdebug_clang -fmdebug-check-calls -O1 -D_FORTIFY_SOURCE=2 -g %s -S -emit-llvm -o - | %FileCheck %s --check-prefix=SYMBOLS
// RUN: %not %t memcpy 2>&1 | %FileCheck %s --check-prefix=MEMCPY
// RUN: %not %t strcpy 2>&1 | %FileCheck %s --check-prefix=STRCPY
// RUN: %not %t strcat 2>&1 | %FileCheck %s --check-prefix=STRCAT
// RUN: %not %t sprintf 2>&1 | %FileCheck %s --check-prefix=SPRINTF
// RUN: %not %t snprintf 2>&1 | %FileCheck %s --check-prefix=SNPRINTF
// RUN: %not %t printf 2>&1 | %FileCheck %s --check-prefix=PRINTF
// RUN: echo hello | %not %t fgets 2>&1 | %FileCheck %s --check-prefix=FGETS
// RUN: echo hello | %not %t read 2>&1 | %FileCheck %s --check-prefix=READ
// RUN: echo hello | %not %t fread 2>&1 | %FileCheck %s --check-prefix=FREAD
// RUN: %not --crash %t stack 2>&1 | %FileCheck %s --check-prefix=STACK
// RUN: echo hello | %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int m_is(const char *m, const char *name) { return !strcmp(m, name); }

struct record {
  char name[8];
};

// SYMBOLS-DAG: call {{.*}}@__mdebug_checked___memcpy_chk(
// SYMBOLS-DAG: call {{.*}}@__mdebug_checked___sprintf_chk(
// SYMBOLS-DAG: call {{.*}}@__mdebug_checked___snprintf_chk(
// SYMBOLS-DAG: call {{.*}}@__mdebug_checked___printf_chk(
int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  int clean = m_is(m, "clean");
  size_t n = clean ? 8 : (size_t)argc + 14; /* 16, unknown to the compiler */
  struct record *rec = malloc(sizeof *rec);
  char *d = rec->name, *s = malloc(32), stack[8];
  memset(s, 'a', 31);
  s[31] = '\0';
  s[clean ? 7 : 20] = '\0';
  d[0] = '\0';
  if (m_is(m, "memcpy") || clean)
    memcpy(d, s, n);
  // MEMCPY: ERROR: heap buffer overflow
  // MEMCPY: written by {{(__)?memcpy(_chk)?}} at {{.*}}calls_fortify.c:[[@LINE-2]]
  // MEMCPY: allocated by malloc at {{.*}}calls_fortify.c:[[@LINE-10]]
  if (m_is(m, "strcpy") || clean)
    strcpy(d, s);
  // STRCPY: written by {{(__)?strcpy(_chk)?}} at {{.*}}calls_fortify.c:[[@LINE-1]]
  if (m_is(m, "strcat") || clean) {
    d[0] = '\0';
    strcat(d, s);
  }
  // STRCAT: written by {{(__)?strcat(_chk)?}} at {{.*}}calls_fortify.c:[[@LINE-2]]
  if (m_is(m, "sprintf") || clean)
    sprintf(d, "%s", s);
  // SPRINTF: written by __sprintf_chk at {{.*}}calls_fortify.c:[[@LINE-1]]
  if (m_is(m, "snprintf") || clean)
    snprintf(d, n, "%s", s);
  // SNPRINTF: written by __snprintf_chk at {{.*}}calls_fortify.c:[[@LINE-1]]
  if (m_is(m, "printf") || clean) {
    s[31] = 'a'; /* unterminated unless clean */
    s[20] = clean ? '\0' : 'a';
    printf("%d %s\n", 1, s);
  }
  // PRINTF: read by __printf_chk at {{.*}}calls_fortify.c:[[@LINE-2]]
  if (m_is(m, "fgets") || clean)
    fgets(d, (int)n, stdin);
  // FGETS: written by {{(__)?fgets(_chk)?}} at {{.*}}calls_fortify.c:[[@LINE-1]]
  if (m_is(m, "read") || clean)
    read(0, d, n);
  // READ: written by {{(__)?read(_chk)?}} at {{.*}}calls_fortify.c:[[@LINE-1]]
  if (m_is(m, "fread") || clean)
    fread(d, 1, n, stdin);
  // FREAD: written by {{(__)?fread(_chk)?}} at {{.*}}calls_fortify.c:[[@LINE-1]]
  if (m_is(m, "stack"))
    memcpy(stack, s, n);
  // STACK: buffer overflow detected
  printf("went on %d\n", stack[0] + d[0] > 0);
  // MEMCPY: went on
  // STRCPY: went on
  // SPRINTF: went on
  // CLEAN: went on
  // CLEAN-NOT: mdebug
  free(s);
  free(rec);
  return 0; /* a run with errors exits 23 (mdebug's exitcode) */
}
