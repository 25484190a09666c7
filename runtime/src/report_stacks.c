/* report_stacks.c - the stacks in a report: a recorded stack (a depot id),
 * a block's allocation and free stacks, the stack of the failing call;
 * each frame as backtrace.c formats it, each line through md_report_line.
 * Inside a report only; never allocates.
 */
#include "base.h"
#include "heap.h"
#include "report.h"
#include "stacks.h"

/* Cold code (reports only): base.h. */
#pragma clang section text = "mdebug_cold"

#define MAX_FRAMES 256 /* as many as backtrace= records at most */

static void print_frames(const uintptr_t *pcs, size_t n) {
  char line[768];
  for (size_t i = 0; i < n; i++) {
    md_frame_format(line, sizeof(line), i, pcs[i]);
    md_report_line("%s", line);
  }
}

void md_report_stack(const char *title, uint32_t id) {
  size_t n;
  const uintptr_t *pcs = md_depot_get(id, &n);
  if (!n)
    return;
  md_report_line("%s", title);
  print_frames(pcs, n);
}

void md_report_block_stacks(const struct md_block *b) {
  if (!b->stacks)
    return;
  md_report_stack("Backtrace at time of allocation:", b->stacks->alloc_stack);
  if (md_block_state(b) != MD_STATE_LIVE)
    md_report_stack("Backtrace at time of free:", b->stacks->free_stack);
}

void md_report_current_stack(void) {
  if (!md_backtrace_frames())
    return;
  uintptr_t pcs[MAX_FRAMES];
  size_t n = md_unwind(pcs, MAX_FRAMES);
  md_report_line("Backtrace at time of failure:");
  if (n)
    print_frames(pcs, n);
  else
    md_report_line("  Backtrace failed to get any frames.");
}
