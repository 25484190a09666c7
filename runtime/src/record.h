/* record.h - record_allocs (record.c). What the rest of the runtime may call;
 * nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_RECORD_H
#define MDEBUG_INTERNAL_RECORD_H

#include "base.h"

extern bool md_recording MD_HIDDEN; /* record_allocs is on (set at init) */
void md_record_init(void) MD_HIDDEN;
uint64_t md_record_now(void) MD_HIDDEN; /* CLOCK_MONOTONIC, ns */
/* One call: arg is calloc's nmemb or memalign's alignment, old realloc's
 * old pointer. Never blocks; dropped once the buffer is full. */
void md_record(enum md_record_type type, uintptr_t ptr, uintptr_t old,
               size_t arg, size_t size, uint64_t start, uint64_t end) MD_HIDDEN;
/* Writes the records since the last write to record_allocs_file (at exit:
 * record_allocs_file.PID); without it, to /tmp/record_allocs.PID.txt (at
 * exit: /tmp/record_allocs.PID.exit.txt). */
void md_record_write(bool at_exit) MD_HIDDEN;
void md_record_atfork_child(void) MD_HIDDEN;

#endif
