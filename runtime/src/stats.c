/* stats.c - log_allocator_stats_on_signal / _on_exit: mdebug's figures (live
 * blocks and what they cost beyond their bytes - slack, guards, metadata -,
 * quarantined and free blocks, what the heap has committed and given back,
 * large blocks, the stack depot), then the program's memory by category
 * (heap blocks, mappings, thread stacks) and its largest sites (usage.c),
 * logged as a few "mdebug: " lines.
 *
 * Runs in the service thread or the exit handler, never in a signal
 * handler; walks the heap's metadata while other threads run. Never
 * allocates.
 */
#include "heap.h"
#include "init.h"
#include "log.h"
#include "stacks.h"
#include "stats.h"
#include "usage.h"

/* Cold code (statistics only): base.h. */
#pragma clang section text = "mdebug_cold"

void md_stats_log(void) {
  md_ensure_init();
  struct md_heap_stats st;
  md_heap_stats(&st);
  md_log("mdebug: Logging allocator stats...");
  size_t overhead = st.live_footprint - st.live_bytes;
  md_log("mdebug: stats: live: %zu blocks, %zu bytes requested, %zu bytes of "
         "mdebug overhead (%zu per block)",
         st.live_blocks, st.live_bytes, overhead,
         st.live_blocks ? overhead / st.live_blocks : 0);
  md_log("mdebug: stats: free_track: %zu blocks, %zu bytes held",
         st.quarantined_blocks, st.quarantined_bytes);
  if (md_backtrace_enabled()) {
    struct md_depot_stats d;
    md_depot_stats(&d);
    md_log("mdebug: stats: stack depot: %zu stacks, %zu bytes, %zu dropped",
           d.stacks, d.bytes, d.dropped);
  }
  md_log("mdebug: stats: heap: %zu bytes committed in size classes (%zu free "
         "slots), %zu bytes given back to the OS so far; %zu large blocks in "
         "%zu bytes of mappings",
         st.committed, st.free_blocks, st.released, st.secondary_blocks,
         st.secondary_bytes);
  /* What the program holds, heap blocks, mappings and thread stacks, by
   * category and by site (usage.c). */
  struct md_usage u;
  if (md_usage_collect(&u)) {
    md_usage_log(&u, "mdebug: stats: ", 10);
    md_usage_free(&u);
  }
}
