// Proves: the C library's searching and comparing calls are checked at the
// call, for the bytes each reads (as AddressSanitizer's interceptors count
// them): strchr, strrchr, strstr, strcasestr, strspn, strcspn, strpbrk,
// strcasecmp and strncasecmp on an unterminated string read one byte past
// its block; memchr, memrchr, memmem and bcmp past a block of 8 for 9
// bytes; strchr of a freed block is a use after free. strchr that finds
// its byte inside the block reads no further and is not reported, unless
// strict_string_checks asks for the whole string. The clean twin
// terminates its strings.
// RUN: %mdebug_clang -fmdebug-check-calls -O0 -g %s -o %t
// RUN: %not %t strchr 2>&1 | %FileCheck %s --check-prefix=STRCHR
// RUN: %not %t strrchr 2>&1 | %FileCheck %s --check-prefix=STRRCHR
// RUN: %not %t strstr 2>&1 | %FileCheck %s --check-prefix=STRSTR
// RUN: %not %t strcasestr 2>&1 | %FileCheck %s --check-prefix=STRCASESTR
// RUN: %not %t strspn 2>&1 | %FileCheck %s --check-prefix=STRSPN
// RUN: %not %t strcspn 2>&1 | %FileCheck %s --check-prefix=STRCSPN
// RUN: %not %t strpbrk 2>&1 | %FileCheck %s --check-prefix=STRPBRK
// RUN: %not %t strcasecmp 2>&1 | %FileCheck %s --check-prefix=STRCASECMP
// RUN: %not %t strncasecmp 2>&1 | %FileCheck %s --check-prefix=STRNCASECMP
// RUN: %not %t memchr 2>&1 | %FileCheck %s --check-prefix=MEMCHR
// RUN: %not %t memrchr 2>&1 | %FileCheck %s --check-prefix=MEMRCHR
// RUN: %not %t memmem 2>&1 | %FileCheck %s --check-prefix=MEMMEM
// RUN: %not %t bcmp 2>&1 | %FileCheck %s --check-prefix=BCMP
// RUN: %not %t uaf 2>&1 | %FileCheck %s --check-prefix=UAF
// RUN: %t found 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: env MDEBUG_OPTIONS=strict_string_checks %not %t found 2>&1 | %FileCheck %s --check-prefix=STRICT
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t.o1
// RUN: %not %t.o1 strstr 2>&1 | %FileCheck %s --check-prefix=STRSTR
// RUN: %t.o1 clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  int clean = !strcmp(m, "clean");
  char *s = malloc(8);
  memset(s, 'a', 8);
  s[7] = clean ? '\0' : 'a'; /* unterminated unless clean */
  size_t n = clean ? 8 : 9;
  volatile long r = 0;
  if (!strcmp(m, "strchr") || clean)
    r += (long)strchr(s, 'z');
  // STRCHR: ERROR: heap buffer overflow
  // STRCHR: read of size 9 at 0x{{[0-9a-f]+}}: its last 1 byte after the end of the block
  // STRCHR-NEXT: read by strchr at {{.*}}calls_search.c:[[@LINE-3]]
  if (!strcmp(m, "strrchr") || clean)
    r += (long)strrchr(s, 'a');
  // STRRCHR: read by strrchr at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "strstr") || clean)
    r += (long)strstr(s, "ab");
  // STRSTR: read by strstr at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "strcasestr") || clean)
    r += (long)strcasestr(s, "AB");
  // STRCASESTR: read by strcasestr at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "strspn") || clean)
    r += (long)strspn(s, "a");
  // STRSPN: read by strspn at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "strcspn") || clean)
    r += (long)strcspn(s, "z");
  // STRCSPN: read by strcspn at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "strpbrk") || clean)
    r += (long)strpbrk(s, "yz");
  // STRPBRK: read by strpbrk at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "strcasecmp") || clean)
    r += strcasecmp(s, "AAAAAAAAAAAA");
  // STRCASECMP: read by strcasecmp at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "strncasecmp") || clean)
    r += strncasecmp(s, "AAAAAAAAAAAA", 10);
  // STRNCASECMP: read by strncasecmp at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "memchr") || clean)
    r += (long)memchr(s, 'z', n);
  // MEMCHR: read of size 9
  // MEMCHR-NEXT: read by memchr at {{.*}}calls_search.c:[[@LINE-2]]
  if (!strcmp(m, "memrchr") || clean)
    r += (long)memrchr(s, 'a', n);
  // MEMRCHR: read by memrchr at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "memmem") || clean)
    r += (long)memmem(s, n, "ab", 2);
  // MEMMEM: read by memmem at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "bcmp") || clean)
    r += bcmp(s, "aaaaaaaaaaaa", n);
  // BCMP: read by bcmp at {{.*}}calls_search.c:[[@LINE-1]]
  if (!strcmp(m, "found")) {
    s[3] = 'z';
    r += (long)strchr(s, 'z');
  }
  // STRICT: ERROR: heap buffer overflow
  // STRICT: read by strchr at {{.*}}calls_search.c:[[@LINE-3]]
  char *gone = strdup("abc");
  free(gone);
  if (!strcmp(m, "uaf"))
    r += (long)strchr(gone, 'c');
  // UAF: ERROR: use after free
  // UAF: read by strchr at {{.*}}calls_search.c:[[@LINE-2]]
  // UAF: freed by free at {{.*}}calls_search.c:[[@LINE-5]]
  free(s);
  return 0; /* a run with errors exits 23 (mdebug's exitcode) */
}
// CLEAN-NOT: mdebug
