/* heapdump.h - the live heap as malloc debug lists it (heapdump.c). What the
 * rest of the runtime may call; nothing declared here allocates through
 * malloc.
 */
#ifndef MDEBUG_INTERNAL_HEAPDUMP_H
#define MDEBUG_INTERNAL_HEAPDUMP_H

#include "base.h"

struct md_live_record {
  size_t size, num; /* num: blocks of this size and stack */
  uint32_t stack, frames; /* frames: the stack's length (for sorting) */
  uintptr_t ptr; /* the lowest block's address */
  uint32_t origin; /* unmerged records: the block's allocation origin id */
};
struct md_live_records {
  struct md_live_record *v;
  size_t n, bytes;
};
/* Every live block (only those with a stack id if asked), sorted as
 * malloc debug sorts, then by origin; merged by size and stack unless
 * `merge` is false (one record a block, num 1); false if out of memory. */
bool md_live_records_collect(struct md_live_records *r, bool only_with_stack,
                             bool merge) MD_HIDDEN;
void md_live_records_free(struct md_live_records *r) MD_HIDDEN;
/* Writes a v1.2 heap dump to path; 0, or -1 with errno. */
int md_heap_dump(const char *path) MD_HIDDEN;
/* backtrace_dump_prefix.PID.txt, or .PID.exit.txt at exit. */
void md_heap_dump_auto(bool at_exit) MD_HIDDEN;
void md_heapdump_atfork_child(void) MD_HIDDEN;

#endif
