/* stats.h - log_allocator_stats (stats.c). What the rest of the runtime may
 * call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_STATS_H
#define MDEBUG_INTERNAL_STATS_H

#include "base.h"

void md_stats_log(void) MD_HIDDEN;

#endif
