/* leak_check_lib.c - a shared library for test/runtime/leak_check, built
 * with mdebug-clang (instrumented: its sites are file:line:col here) or
 * with plain clang (third-party code: its sites are return addresses in
 * the library). Its global, its thread-local and its leak are its own. */
#include <stdlib.h>
#include <string.h>

static void *lc_global;           /* a global of the library, in its .bss */
static __thread void *lc_thread;  /* a thread-local of the library */

/* The library keeps a block of n bytes in its global. */
void lc_keep_global(size_t n) {
  lc_global = malloc(n);
  memset(lc_global, 'g', n);
}
void lc_drop_global(void) { lc_global = NULL; }

/* The library keeps a block of n bytes in the calling thread's copy of
 * its thread-local. */
void lc_keep_thread(size_t n) {
  lc_thread = malloc(n);
  memset(lc_thread, 't', n);
}
void lc_drop_thread(void) { lc_thread = NULL; }

/* Allocates a scratch buffer and forgets it. */
void lc_leak(size_t n) {
  char *scratch = malloc(n);
  memset(scratch, 's', n);
}

/* A block the caller owns. */
void *lc_alloc(size_t n) { return malloc(n); }
void lc_free(void *p) { free(p); }
