/* fill.h - fill_on_alloc and fill_on_free, and the check of a freed block's
 * fill (fill.c). What the rest of the runtime may call; nothing declared here
 * allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_FILL_H
#define MDEBUG_INTERNAL_FILL_H

#include "base.h"

struct md_block;

void md_fill_on_alloc(const struct md_block *b) MD_HIDDEN; /* fill_on_alloc */
void md_fill_on_free(const struct md_block *b) MD_HIDDEN;
/* Checks that a quarantined block still holds its free fill; reports
 * USED AFTER FREE with the changed bytes. */
bool md_fill_check_freed(const struct md_block *b, bool at_exit) MD_HIDDEN;

#endif
