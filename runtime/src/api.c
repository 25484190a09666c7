/* api.c - the user API declared in mdebug.h: thin, exported wrappers over
 * the modules that do the work. Never allocates.
 */
#include "internal.h"
#include "mdebug/mdebug.h"

MD_EXPORT size_t mdebug_check_leaks(void) { return md_leak_check_now(); }

MD_EXPORT int mdebug_dump_heap(const char *path) { return md_heap_dump(path); }

MD_EXPORT void mdebug_ignore(const void *ptr) { md_leak_ignore(ptr); }

MD_EXPORT void mdebug_register_root(const void *begin, size_t size) {
  md_world_register_root(begin, size);
}

MD_EXPORT void mdebug_unregister_root(const void *begin, size_t size) {
  md_world_unregister_root(begin, size);
}
