/* signals.h - signal-triggered work, done by a service thread (signals.c).
 * What the rest of the runtime may call; nothing declared here allocates
 * through malloc.
 */
#ifndef MDEBUG_INTERNAL_SIGNALS_H
#define MDEBUG_INTERNAL_SIGNALS_H

#include "base.h"

/* From the runtime's constructor (not from inside an allocation: it starts
 * a thread, which allocates). */
void md_signals_init(void) MD_HIDDEN;
void md_signals_atfork_child(void) MD_HIDDEN;

#endif
