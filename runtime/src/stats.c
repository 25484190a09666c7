/* stats.c - log_allocator_stats_on_signal / _on_exit: mdebug's own figures
 * (live and quarantined blocks, their overhead, the stack depot, records)
 * and glibc's (mallinfo2), logged as a few "mdebug: " lines.
 *
 * Runs in the service thread or the exit handler, never in a signal
 * handler; walks the block tables shard by shard. Never allocates.
 */
#define _GNU_SOURCE
#include <malloc.h>

#include "chunk.h"

struct totals {
  size_t blocks, bytes;
};

static void add(void *user, void *arg) {
  struct totals *t = arg;
  t->blocks++;
  t->bytes += md_chunk_of(user)->size;
}

void md_stats_log(void) {
  md_ensure_init();
  md_log("mdebug: Logging allocator stats...");
  size_t per_block = md_layout.prefix + md_layout.expand + md_layout.tail;
  if (md_track_enabled()) {
    struct totals live = {0, 0}, freed = {0, 0};
    md_track_for_each(MD_TRACK_LIVE, add, &live);
    md_track_for_each(MD_TRACK_FREED, add, &freed);
    md_log("mdebug: stats: live: %zu blocks, %zu bytes requested, %zu bytes "
           "of mdebug overhead (%zu per block)",
           live.blocks, live.bytes, live.blocks * per_block, per_block);
    md_log("mdebug: stats: free_track: %zu blocks, %zu bytes held",
           freed.blocks, freed.bytes);
  } else {
    md_log("mdebug: stats: blocks are not tracked (no option needs it); "
           "%zu bytes of mdebug overhead per block", per_block);
  }
  if (md_backtrace_enabled()) {
    struct md_depot_stats d;
    md_depot_stats(&d);
    md_log("mdebug: stats: stack depot: %zu stacks, %zu bytes, %zu dropped",
           d.stacks, d.bytes, d.dropped);
  }
  struct mallinfo2 mi = mallinfo2();
  md_log("mdebug: stats: glibc: arena %zu bytes, in use %zu, free %zu, "
         "mmapped %zu in %zu regions, releasable %zu",
         mi.arena + mi.hblkhd, mi.uordblks + mi.hblkhd, mi.fordblks, mi.hblkhd,
         mi.hblks, mi.keepcost);
}
