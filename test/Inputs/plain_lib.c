/* plain_lib.c - a shared library built with plain clang (no mdebug plugin),
 * standing in for third-party code: its allocations reach the mdebug
 * runtime only through the standard malloc/free symbols. Used by
 * test/runtime/uninstrumented. */
#include <stdlib.h>
#include <string.h>

/* Returns a new block of n bytes, zeroed; the caller owns it. */
void *plain_alloc(size_t n) {
  void *p = malloc(n);
  if (p)
    memset(p, 0, n);
  return p;
}

/* Releases a block, whoever allocated it. */
void plain_free(void *p) { free(p); }

/* Allocates a scratch buffer and forgets it. */
void plain_leak(size_t n) {
  char *scratch = malloc(n);
  if (scratch)
    scratch[0] = 0;
}
