/* threshold.h - vm_threshold, rss_threshold (threshold.c). What the rest of
 * the runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_THRESHOLD_H
#define MDEBUG_INTERNAL_THRESHOLD_H

#include "base.h"

/* The process grew by about `bytes` (a mapping, a commit, a stack); may
 * check the thresholds now (can_check: the caller holds no lock of the
 * runtime's) or have the watcher thread check them. Cheap: one atomic add
 * until a step of growth has gathered. */
void md_threshold_grew(size_t bytes, bool can_check) MD_HIDDEN;
/* The program unmapped memory: re-arms a threshold it fell below. */
void md_threshold_shrank(void) MD_HIDDEN;
/* From the runtime's constructor: the watcher, when a threshold is set. */
void md_threshold_init(void) MD_HIDDEN;
void md_threshold_atfork_child(void) MD_HIDDEN;

#endif
