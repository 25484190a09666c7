/* refuse.h - requests no block can answer (reported unless
 * allocator_may_return_null); cold, out of line (refuse.c). What the rest of
 * the runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_REFUSE_H
#define MDEBUG_INTERNAL_REFUSE_H

#include "base.h"

/* A size over max_allocation_size (or an alignment over it): NULL, ENOMEM. */
void *md_refuse_size(size_t size, size_t align, unsigned op,
                     md_origin_t origin) MD_HIDDEN __attribute__((cold));
/* calloc's or reallocarray's n * size overflows: NULL, ENOMEM. */
void *md_refuse_product(size_t n, size_t size, unsigned op,
                        md_origin_t origin) MD_HIDDEN __attribute__((cold));
/* pvalloc's size rounded up to a page overflows: NULL, ENOMEM. */
void *md_refuse_pvalloc(size_t size, size_t page, unsigned op,
                        md_origin_t origin) MD_HIDDEN __attribute__((cold));
/* An alignment the call does not accept: returns EINVAL; errno EINVAL but
 * for posix_memalign (kept). */
int md_refuse_alignment(size_t align, size_t size, unsigned op,
                        md_origin_t origin) MD_HIDDEN __attribute__((cold));

#endif
