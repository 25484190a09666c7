// Proves: a checked C library function called through a pointer the
// program took (a volatile function pointer, a table of handlers) is
// checked as a direct call is, in every build: memcpy through a pointer
// with a size past its block, strchr of an unterminated string from a
// table; the report names the line that took the function's address (the
// call through the pointer has no site of its own). A function pointer in a
// constant initializer keeps the function's own address, unchecked. The
// clean twin passes sizes that fit.
// RUN: %mdebug_clang -O0 -g %s -o %t
// RUN: %not %t memcpy 2>&1 | %FileCheck %s --check-prefix=MEMCPY
// RUN: %not %t strchr 2>&1 | %FileCheck %s --check-prefix=STRCHR
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %mdebug_clang -O2 -g %s -o %t.o2
// RUN: %not %t.o2 memcpy 2>&1 | %FileCheck %s --check-prefix=MEMCPY
// RUN: %t.o2 clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdlib.h>
#include <string.h>

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef char *(*find_fn)(const char *, int);

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "";
  int clean = !strcmp(m, "clean");
  char *d = malloc(8), *s = malloc(8);
  memset(s, 'a', 8);
  s[7] = clean ? '\0' : 'a';
  volatile copy_fn copy = &memcpy;
  // MEMCPY: ERROR: heap buffer overflow
  // MEMCPY: write of size 12
  // MEMCPY-NEXT: written by memcpy at {{.*}}calls_pointer.c:[[@LINE-3]]
  find_fn volatile table[1];
  table[0] = strchr;
  // STRCHR: ERROR: heap buffer overflow
  // STRCHR: read by strchr at {{.*}}calls_pointer.c:[[@LINE-2]]
  if (!strcmp(m, "memcpy") || clean)
    copy(d, "0123456789ab", clean ? 8 : 12);
  if (!strcmp(m, "strchr") || clean)
    table[0](s, 'z');
  free(s);
  free(d);
  return 0; /* a run with errors exits 23 (mdebug's exitcode) */
}
// CLEAN-NOT: mdebug
