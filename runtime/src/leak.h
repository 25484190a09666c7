/* leak.h - the leak check: at exit, on demand, and the blocks it must ignore
 * (leak.c). What the rest of the runtime may call; nothing declared here
 * allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_LEAK_H
#define MDEBUG_INTERNAL_LEAK_H

#include "base.h"

/* At exit: reports leaks (leak_check: the unreachable ones; leak_track:
 * every block still allocated). */
/* At init: the address space the leak checks keep for themselves. */
void md_leak_init(void) MD_HIDDEN;
/* The check's lock, in a forked child (no check runs there). */
void md_leak_atfork_child(void) MD_HIDDEN;
void md_leak_report_at_exit(void) MD_HIDDEN;
/* mdebug_check_leaks(): the unreachable blocks now; returns how many. */
size_t md_leak_check_now(void) MD_HIDDEN;
/* mdebug_ignore(): the block is kept on purpose. */
void md_leak_ignore(const void *p) MD_HIDDEN;

#endif
