/* exit.h - the runtime's exit() (exit.c). What the rest of the runtime may
 * call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_EXIT_H
#define MDEBUG_INTERNAL_EXIT_H

#include "base.h"

/* The stack pointer at which this thread called exit() (the frames above it
 * are alive), or 0 if it did not (main returned). */
uintptr_t md_exit_live_sp(void) MD_HIDDEN;

#endif
