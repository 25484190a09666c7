/* sort.h - the runtime's one sort, never allocating (sort.c). What the rest of
 * the runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_SORT_H
#define MDEBUG_INTERNAL_SORT_H

#include "base.h"

/* Heap sort of n records of `size` bytes; before(a, b): a goes first. */
void md_sort(void *base, size_t n, size_t size,
             bool (*before)(const void *a, const void *b)) MD_HIDDEN;

#endif
