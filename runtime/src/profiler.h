/* profiler.h - the heap profiler's per-site counters, sampling and snapshots
 * (counters.c, sample.c, snapshot.c). What the rest of the runtime may call;
 * nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_PROFILER_H
#define MDEBUG_INTERNAL_PROFILER_H

#include "base.h"

struct md_block;

void md_counters_init(void) MD_HIDDEN;
void md_counters_atfork_prepare(void) MD_HIDDEN;
void md_counters_atfork_parent(void) MD_HIDDEN;
void md_counters_atfork_child(void) MD_HIDDEN;
void md_sample_init(void) MD_HIDDEN; /* at init, after the options */
bool md_sample_configured(void) MD_HIDDEN; /* a sampling option is set */
/* Tracking on or off (SIGRTMAX-12, mdebug_track()); returns the previous
 * state (the toggle: the new one). Blocks tracked already stay tracked. */
bool md_sample_set_tracking(bool on) MD_HIDDEN;
bool md_sample_toggle(void) MD_HIDDEN;
void md_sample_atfork_child(void) MD_HIDDEN;
void md_snapshot_init(void) MD_HIDDEN;  /* at init, after md_sample_init */
void md_snapshot_start(void) MD_HIDDEN; /* constructor: the profiler thread */
bool md_profiling(void) MD_HIDDEN;      /* a profile option is set */
/* Appends a snapshot labelled `label` to the profile (creating it); 0, or
 * -1 with errno. */
int md_snapshot_take(const char *label) MD_HIDDEN;
/* A double free alloc.c reported (second: the origin of the second free):
 * the profile's next write has its X record. */
void md_snapshot_double_free(const struct md_block *b, md_origin_t second)
    MD_HIDDEN;
/* At exit: the last snapshot ("exit") and the end record. */
void md_snapshot_at_exit(void) MD_HIDDEN;
void md_snapshot_atfork_prepare(void) MD_HIDDEN;
void md_snapshot_atfork_parent(void) MD_HIDDEN;
void md_snapshot_atfork_child(void) MD_HIDDEN; /* starts a thread */

#endif
