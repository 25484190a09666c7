/* alloc.h - the checked allocator every entry point goes through (alloc.c).
 * What the rest of the runtime may call; nothing declared here allocates
 * through malloc.
 */
#ifndef MDEBUG_INTERNAL_ALLOC_H
#define MDEBUG_INTERNAL_ALLOC_H

#include "base.h"

void *md_allocate(size_t size, size_t align, enum md_family family, bool zero,
                  unsigned op, md_origin_t origin) MD_HIDDEN;
void md_deallocate(void *ptr, enum md_family family, unsigned op,
                   md_origin_t origin) MD_HIDDEN;
void *md_reallocate(void *ptr, size_t size, unsigned op, md_origin_t origin)
    MD_HIDDEN;
size_t md_usable_size(void *ptr, unsigned op, md_origin_t origin) MD_HIDDEN;
/* posix_memalign / aligned_alloc / memalign / valloc / pvalloc rules. */
int md_posix_memalign(void **out, size_t align, size_t size, unsigned op,
                      md_origin_t origin) MD_HIDDEN;
void *md_memalign(size_t align, size_t size, unsigned op, md_origin_t origin)
    MD_HIDDEN;

static inline bool md_is_power_of_two(size_t x) { return x && !(x & (x - 1)); }

#endif
