/* guard.h - the guard bytes before and after a block: written, checked
 * (guard.c). What the rest of the runtime may call; nothing declared here
 * allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_GUARD_H
#define MDEBUG_INTERNAL_GUARD_H

#include "base.h"

struct md_block;

extern bool md_guards_on MD_HIDDEN; /* front_guard or rear_guard (set at init) */
void md_guard_init(void) MD_HIDDEN;
/* Writes a new block's guards; `before` is its metadata bits before it was
 * handed out (a slot whose pages were released needs its guard areas). */
void md_guard_write(const struct md_block *b, uint32_t before) MD_HIDDEN;
/* Checks both guards; reports each corrupted one. Returns true if intact. */
bool md_guard_check(const struct md_block *b, unsigned op, md_origin_t origin)
    MD_HIDDEN;
/* At exit: checks the guards of every block still allocated. */
void md_guard_check_live(void) MD_HIDDEN;

#endif
