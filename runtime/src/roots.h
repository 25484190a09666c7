/* roots.h - the roots of a leak scan (roots_linux.c). What the rest of the
 * runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_ROOTS_H
#define MDEBUG_INTERNAL_ROOTS_H

#include "base.h"
#include "scan_contract.h"

/* A range of memory that may hold pointers to blocks. */
/* Opens the /proc files a stop reads (at start-up, in a forked child). */
void md_roots_open_files(void) MD_HIDDEN;
/* Before the threads are stopped: the registered-roots lock; false (*why
 * set) on failure. Never takes the loader's lock. */
bool md_roots_prepare(const char **why) MD_HIDDEN;
/* While they are stopped: the address space and the modules in it; false
 * (*why set) on failure. */
bool md_roots_read_maps(const char **why) MD_HIDDEN;
/* Only inside md_world_stop's fn: calls fn for each readable part of
 * [begin, end) (by the maps read for the stop), contiguous parts merged. */
void md_roots_each_readable(uintptr_t begin, uintptr_t end,
                            void (*fn)(uintptr_t b, uintptr_t e, void *arg),
                            void *arg) MD_HIDDEN;
/* Only inside md_world_stop's fn: as md_roots_each_readable, but only the
 * pages that may hold data (resident, or swapped out; see roots_linux.c):
 * a sparse block or mapping is not read whole. */
void md_roots_each_present(uintptr_t begin, uintptr_t end,
                           void (*fn)(uintptr_t b, uintptr_t e, void *arg),
                           void *arg) MD_HIDDEN;
/* After they resume (only if md_roots_prepare succeeded). */
void md_roots_finish(void) MD_HIDDEN;
/* Only inside md_world_stop's fn: calls visit for every root region: the
 * writable segments of every loaded module (only their pages that may hold
 * data, as md_roots_each_present), each thread's stack from its
 * stack pointer (the calling thread's too), each thread's saved registers,
 * each thread's static TLS and thread descriptor, the descriptors of
 * threads that exited but are not yet joined, and the regions the program
 * registered with mdebug_register_root(). Regions of the runtime's own
 * memory are not roots. */
void md_world_roots(void (*visit)(const struct md_region *r, void *arg),
                    void *arg) MD_HIDDEN;
/* mdebug_register_root / mdebug_unregister_root keep their list here. */
void md_world_register_root(const void *begin, size_t size) MD_HIDDEN;
void md_world_unregister_root(const void *begin, size_t size) MD_HIDDEN;

#endif
