/* quarantine.h - the free_track FIFO, one per thread (quarantine.c). What the
 * rest of the runtime may call; nothing declared here allocates through
 * malloc.
 */
#ifndef MDEBUG_INTERNAL_QUARANTINE_H
#define MDEBUG_INTERNAL_QUARANTINE_H

#include "base.h"

struct md_block;

void md_quarantine_init(void) MD_HIDDEN;
/* Takes a freed block (state QUARANTINED) and fills it (fill_on_free); may
 * check an older one and give it back to the heap. */
void md_quarantine_push(const struct md_block *b) MD_HIDDEN;
/* Checks everything still held (at exit). */
void md_quarantine_drain(void) MD_HIDDEN;
void md_quarantine_atfork_child(void) MD_HIDDEN;

#endif
