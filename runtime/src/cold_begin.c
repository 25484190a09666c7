/* cold_begin.c - the first bytes of the section mdebug_cold (base.h): an
 * empty function aligned to 64 KiB, the window the kernel maps around each
 * fault in a file's cached pages (fault-around). The source list
 * (runtime/CMakeLists.txt) keeps this file first and cold_end.c last, and
 * the runtime is linked whole (--whole-archive, or the shared library), so
 * the cold section starts and ends on a window boundary of its own: no
 * executed byte (the program's code, the runtime's hot code, .fini) shares
 * a window with a cold page, and a clean run leaves the cold pages out of
 * its resident set. The alignment also makes the executable segment's
 * p_align 64 KiB, so the loader places it the same way in every run.
 * Costs up to 128 KiB of padding in the file, none of it resident.
 *
 * Defines nothing that is called.
 */
#include "base.h"

#pragma clang section text = "mdebug_cold"

MD_HIDDEN __attribute__((used, aligned(65536))) void md_cold_begin(void) {}
