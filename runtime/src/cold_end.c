/* cold_end.c - the last bytes of the section mdebug_cold: an empty function
 * aligned to 64 KiB, so that whatever the linker places after the section
 * (.fini, or the runtime's hot code) starts a window of its own. See
 * cold_begin.c.
 *
 * Defines nothing that is called.
 */
#include "base.h"

#pragma clang section text = "mdebug_cold"

MD_HIDDEN __attribute__((used, aligned(65536))) void md_cold_end(void) {}
