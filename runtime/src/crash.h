/* crash.h - a summary when SIGSEGV, SIGBUS or abort() ends the run (crash.c).
 * What the rest of the runtime may call; nothing declared here allocates
 * through malloc.
 */
#ifndef MDEBUG_INTERNAL_CRASH_H
#define MDEBUG_INTERNAL_CRASH_H

#include "base.h"

/* From the active copy's constructor: handlers where the disposition is the
 * default, and the main thread's alternate signal stack. */
void md_crash_init(void) MD_HIDDEN;

#endif
