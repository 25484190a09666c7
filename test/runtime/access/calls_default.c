// Proves: a build with mdebug-clang's defaults (no -fmdebug-check-*)
// checks the C library's less common calls at the call: strchr reading an
// unterminated string past its block, atoi likewise, printf's %s of a
// freed block; the calls programs make in inner loops (memcpy, strlen,
// memcmp) are left to -fmdebug-check-calls, so a memcpy past the block is
// found by the rear guard at free, not at the call.
// -fno-mdebug-check-lib-calls turns the call checks off. The clean twin
// terminates its string.
// RUN: %mdebug_clang -O1 -g %s -o %t
// RUN: %not %t strchr 2>&1 | %FileCheck %s --check-prefix=STRCHR
// RUN: %not %t atoi 2>&1 | %FileCheck %s --check-prefix=ATOI
// RUN: %not %t printf 2>&1 | %FileCheck %s --check-prefix=PRINTF
// RUN: %not %t memcpy 2>&1 | %FileCheck %s --check-prefix=MEMCPY
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clang -fno-mdebug-check-lib-calls -O1 -g %s -o %t.off
// RUN: %t.off strchr 2>&1 | %FileCheck %s --check-prefix=OFF --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  int clean = !strcmp(m, "clean");
  char *s = malloc(8);
  memset(s, '1', 8);
  s[7] = clean ? '\0' : '1';
  volatile long r = 0;
  if (!strcmp(m, "strchr") || clean)
    r += (long)strchr(s, 'z');
  // STRCHR: ERROR: heap buffer overflow
  // STRCHR: read by strchr at {{.*}}calls_default.c:[[@LINE-2]]
  if (!strcmp(m, "atoi") || clean)
    r += atoi(s);
  // ATOI: read by {{atoi|strtol}} at {{.*}}calls_default.c:[[@LINE-1]]
  char *gone = malloc(4);
  strcpy(gone, "abc");
  free(gone);
  if (!strcmp(m, "printf"))
    printf("[%s]\n", gone);
  // PRINTF: ERROR: use after free
  // PRINTF: read by printf at {{.*}}calls_default.c:[[@LINE-2]]
  char *d = malloc(8);
  if (!strcmp(m, "memcpy"))
    memcpy(d, "0123456789", (size_t)argc + 8);
  // MEMCPY-NOT: written by memcpy
  // MEMCPY: ERROR: rear guard corrupted
  free(d);
  free(s);
  return 0; /* a run with errors exits 23 (mdebug's exitcode) */
}
// CLEAN-NOT: mdebug
// OFF-NOT: mdebug: ERROR
