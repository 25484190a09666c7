/* stale_runtime.c - stands in for a runtime built for another ABI version:
 * it defines the entry points a small C program needs, but the version
 * check symbol of version 0. Used by test/runtime/abi/stale_runtime.c. */
#include <stdlib.h>

struct mdebug_site;

void *__mdebug_malloc(size_t size, const struct mdebug_site *site) {
  (void)site;
  return malloc(size);
}

void __mdebug_free(void *p, const struct mdebug_site *site) {
  (void)site;
  free(p);
}

void __mdebug_version_mismatch_check_v0(void) {}
