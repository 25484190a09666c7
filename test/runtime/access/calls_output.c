// Proves: what the C library's output calls read is checked at the call:
// puts and fputs of an unterminated string, fwrite, write and send of 9
// bytes from a block of 8, every %s argument of printf, fprintf, dprintf,
// vprintf, vfprintf, snprintf and vsnprintf (a %s of a freed block is a use
// after free), while a %.4s of the same unterminated string reads only 4
// bytes and is not reported. The clean twin terminates its string.
// RUN: %mdebug_clang -fmdebug-check-calls -O0 -g %s -o %t
// RUN: %not %t puts 2>&1 | %FileCheck %s --check-prefix=PUTS
// RUN: %not %t fputs 2>&1 | %FileCheck %s --check-prefix=FPUTS
// RUN: %not %t fwrite 2>&1 | %FileCheck %s --check-prefix=FWRITE
// RUN: %not %t write 2>&1 | %FileCheck %s --check-prefix=WRITE
// RUN: %not %t send 2>&1 | %FileCheck %s --check-prefix=SEND
// RUN: %not %t printf 2>&1 | %FileCheck %s --check-prefix=PRINTF
// RUN: %not %t fprintf 2>&1 | %FileCheck %s --check-prefix=FPRINTF
// RUN: %not %t dprintf 2>&1 | %FileCheck %s --check-prefix=DPRINTF
// RUN: %not %t vprintf 2>&1 | %FileCheck %s --check-prefix=VPRINTF
// RUN: %not %t vfprintf 2>&1 | %FileCheck %s --check-prefix=VFPRINTF
// RUN: %not %t snprintf 2>&1 | %FileCheck %s --check-prefix=SNPRINTF
// RUN: %not %t vsnprintf 2>&1 | %FileCheck %s --check-prefix=VSNPRINTF
// RUN: %not %t freed 2>&1 | %FileCheck %s --check-prefix=FREED
// RUN: %t precision 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int m_is(const char *m, const char *name) { return !strcmp(m, name); }

static void vp(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vprintf(format, ap);
  // VPRINTF: read by vprintf at {{.*}}calls_output.c:[[@LINE-1]]
  va_end(ap);
}

static void vfp(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vfprintf(stdout, format, ap);
  // VFPRINTF: read by vfprintf at {{.*}}calls_output.c:[[@LINE-1]]
  va_end(ap);
}

static void vsnp(char *dst, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vsnprintf(dst, 64, format, ap);
  // VSNPRINTF: read by vsnprintf at {{.*}}calls_output.c:[[@LINE-1]]
  va_end(ap);
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  int clean = m_is(m, "clean");
  char *s = malloc(8), out[64];
  memset(s, 'a', 8);
  if (clean)
    s[7] = '\0';
  size_t n = clean ? 8 : 9;
  int fd = 1;
  if (m_is(m, "puts") || clean)
    puts(s);
  // PUTS: ERROR: heap buffer overflow
  // PUTS: read by puts at {{.*}}calls_output.c:[[@LINE-2]]
  if (m_is(m, "fputs") || clean)
    fputs(s, stdout);
  // FPUTS: read by fputs at {{.*}}calls_output.c:[[@LINE-1]]
  if (m_is(m, "fwrite") || clean)
    fwrite(s, 1, n, stdout);
  // FWRITE: read of size 9
  // FWRITE-NEXT: read by fwrite at {{.*}}calls_output.c:[[@LINE-2]]
  if (m_is(m, "write") || clean)
    write(fd, s, n);
  // WRITE: read by write at {{.*}}calls_output.c:[[@LINE-1]]
  if (m_is(m, "send") || clean)
    send(-1, s, n, 0);
  // SEND: read by send at {{.*}}calls_output.c:[[@LINE-1]]
  if (m_is(m, "printf") || clean)
    printf("%d %s %c\n", 1, s, 'x');
  // PRINTF: read by printf at {{.*}}calls_output.c:[[@LINE-1]]
  if (m_is(m, "fprintf") || clean)
    fprintf(stdout, "%5.2f %ld %s\n", 1.5, 7L, s);
  // FPRINTF: read by fprintf at {{.*}}calls_output.c:[[@LINE-1]]
  if (m_is(m, "dprintf") || clean)
    dprintf(fd, "%*d%s\n", 3, 1, s);
  // DPRINTF: read by dprintf at {{.*}}calls_output.c:[[@LINE-1]]
  if (m_is(m, "vprintf") || clean)
    vp("%s\n", s);
  if (m_is(m, "vfprintf") || clean)
    vfp("%p %s\n", (void *)s, s);
  if (m_is(m, "snprintf") || clean)
    snprintf(out, sizeof(out), "[%s]", s);
  // SNPRINTF: read by snprintf at {{.*}}calls_output.c:[[@LINE-1]]
  if (m_is(m, "vsnprintf") || clean)
    vsnp(out, "%lld %s", 5LL, s);
  if (m_is(m, "precision"))
    printf("%.4s %.*s\n", s, 3, s);
  char *gone = malloc(4);
  strcpy(gone, "abc");
  free(gone);
  if (m_is(m, "freed"))
    printf("%s\n", gone);
  // FREED: ERROR: use after free
  // FREED: read by printf at {{.*}}calls_output.c:[[@LINE-2]]
  free(s);
  return 0; /* a run with errors exits 23 (mdebug's exitcode) */
}
// CLEAN-NOT: mdebug
