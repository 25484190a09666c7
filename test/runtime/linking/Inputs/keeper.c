/* keeper.c - an instrumented shared library for test/runtime/linking: it
 * allocates and frees on the program's behalf, and asks mdebug for a leak
 * check, so that every call of a library linked with libmdebug-rt.so is
 * seen to reach the one runtime of the process. */
#include <stdlib.h>
#include <string.h>

#pragma weak mdebug_check_leaks
size_t mdebug_check_leaks(void);

char *keeper_copy(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  memcpy(p, s, n);
  return p;
}

void keeper_free(void *p) { free(p); }

/* What mdebug_check_leaks() returns, called from here; -1 if absent. */
long keeper_check_leaks(void) {
  return mdebug_check_leaks ? (long)mdebug_check_leaks() : -1;
}
