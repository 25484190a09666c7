/* init.h - start-up: the state every entry point checks, and the fork epoch
 * (init.c). What the rest of the runtime may call; nothing declared here
 * allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_INIT_H
#define MDEBUG_INTERNAL_INIT_H

#include "base.h"

extern int md_init_state MD_HIDDEN; /* 0 none, 1 running, 2 ready, 3 exiting */
void md_init_slow(void) MD_HIDDEN;
static inline void md_ensure_init(void) {
  if (MD_UNLIKELY(__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) != 2))
    md_init_slow();
}

#endif
