/* backtrace.c - which stacks are recorded, and how a frame prints.
 *
 * Policy: allocation stacks with backtrace=N (or backtrace_enable_on_signal
 * once SIGRTMAX-19 turned capture on), only for sizes within
 * backtrace_min_size..backtrace_max_size; free stacks of
 * free_track_backtrace_num_frames frames. A stack is kept as a depot id in
 * the block's stack id array (heap.h).
 *
 * Frames print in mdebug's one frame style (md_pc_describe), numbered and
 * indented as malloc debug's:
 *   "          #00 pc 0x11a8 in make /src/x.c:12:5 (/path/module)"
 * (the call instruction's address in the module's file: return address - 1,
 * in hex). Reports print their stacks with report_stacks.c. Never
 * allocates.
 */
#include "base.h"
#include "options.h"
#include "print.h"
#include "site.h"
#include "stacks.h"

#define MAX_FRAMES 256

static bool capture_on; /* toggled by SIGRTMAX-19 with enable_on_signal */
static size_t frames, min_size, max_size, free_frames;

void md_backtrace_init(void) {
  frames = md_opt.backtrace ? md_opt.backtrace : md_opt.backtrace_enable_on_signal;
  capture_on = md_opt.backtrace != 0;
  min_size = md_opt.backtrace_min_size;
  max_size = md_opt.backtrace_max_size ? md_opt.backtrace_max_size : MD_SIZE_ALL;
  free_frames = md_opt.free_track ? md_opt.free_track_backtrace_num_frames : 0;
  if (frames || free_frames) {
    md_depot_init();
    md_unwind_refresh_code();
  }
}

bool md_backtrace_enabled(void) { return frames != 0 || free_frames != 0; }
size_t md_backtrace_frames(void) { return frames; }

MD_OFF_BY_DEFAULT bool md_backtrace_toggle(void) {
  bool now = !__atomic_load_n(&capture_on, __ATOMIC_RELAXED);
  __atomic_store_n(&capture_on, now, __ATOMIC_RELAXED);
  return now;
}

MD_OFF_BY_DEFAULT uint32_t md_backtrace_alloc_at(size_t size, uintptr_t fp) {
  if (!__atomic_load_n(&capture_on, __ATOMIC_RELAXED))
    return 0;
  if (size < min_size || size > max_size)
    return MD_STACK_EMPTY; /* tracked, without a stack (malloc debug) */
  uintptr_t pcs[MAX_FRAMES];
  uint64_t h;
  size_t n = md_unwind_hashed(pcs, frames, fp, &h);
  return md_depot_put_hashed(pcs, n, h);
}
MD_OFF_BY_DEFAULT uint32_t md_backtrace_alloc(size_t size) {
  return md_backtrace_alloc_at(size, 0);
}

MD_OFF_BY_DEFAULT uint32_t md_backtrace_free_at(uintptr_t fp) {
  if (!free_frames)
    return 0;
  uintptr_t pcs[MAX_FRAMES];
  uint64_t h;
  size_t n = md_unwind_hashed(pcs, free_frames, fp, &h);
  return md_depot_put_hashed(pcs, n, h);
}
MD_OFF_BY_DEFAULT uint32_t md_backtrace_free(void) {
  return md_backtrace_free_at(0);
}

MD_COLD size_t md_frame_format(char *buf, size_t size, size_t index,
                               uintptr_t pc) {
  size_t n = md_format(buf, size, "          #%02zu ", index);
  return n + md_pc_describe(buf + n, size - n, pc);
}
