/* leakinfo.c - malloc debug's programmatic heap interface, with its
 * documented layouts: get_malloc_leak_info / free_malloc_leak_info and
 * malloc_backtrace. The info buffer is mmap'ed (never the program's
 * malloc) with a small hidden header, so free_malloc_leak_info can tell
 * its own buffers from anything else it is given. An inert copy of the
 * runtime passes each call on (copies.c).
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/types.h>

#include "base.h"
#include "copies.h"
#include "heap.h"
#include "heapdump.h"
#include "init.h"
#include "log.h"
#include "mdebug/mdebug.h"
#include "scan_contract.h"
#include "stacks.h"

/* Cold code (get_malloc_leak_info only): base.h. */
#pragma clang section text = "mdebug_cold"

#define INFO_MAGIC 0x6d64696e666f3132ull /* "mdinfo12" */

struct info_header {
  uint64_t magic;
  uint64_t bytes; /* the whole mapping, header included */
};

MD_EXPORT void get_malloc_leak_info(uint8_t **info, size_t *overall_size,
                                    size_t *info_size, size_t *total_memory,
                                    size_t *backtrace_size) {
  if (MD_UNLIKELY(!md_copy_active())) { /* an inert copy (copies.c) */
    if (md_forward.get_leak_info)
      md_forward.get_leak_info(info, overall_size, info_size, total_memory,
                               backtrace_size);
    else if (info && overall_size && info_size && total_memory &&
             backtrace_size) { /* nothing tracked */
      *info = NULL;
      *overall_size = *info_size = *total_memory = *backtrace_size = 0;
    }
    return;
  }
  if (!info || !overall_size || !info_size || !total_memory ||
      !backtrace_size) {
    md_log("mdebug: get_malloc_leak_info: At least one invalid parameter.");
    return;
  }
  md_ensure_init();
  *info = NULL;
  *overall_size = *info_size = *total_memory = *backtrace_size = 0;
  size_t frames = md_backtrace_frames();
  if (!frames) {
    md_log("mdebug: get_malloc_leak_info: Allocations not being tracked, to "
           "enable set the option 'backtrace'.");
    return;
  }
  struct md_live_records r;
  if (!md_live_records_collect(&r, true, true))
    return;
  if (r.n) {
    size_t entry = 2 * sizeof(size_t) + frames * sizeof(uintptr_t);
    size_t bytes = sizeof(struct info_header) + entry * r.n;
    struct info_header *h = md_mmap(bytes);
    if (h) {
      h->magic = INFO_MAGIC;
      h->bytes = bytes;
      uint8_t *data = (uint8_t *)(h + 1);
      for (size_t i = 0; i < r.n; i++, data += entry) {
        const struct md_live_record *rec = &r.v[i];
        size_t n;
        const uintptr_t *pcs = md_depot_get(rec->stack, &n);
        if (n > frames)
          n = frames;
        *total_memory += rec->size * rec->num;
        memcpy(data, &rec->size, sizeof(size_t)); /* bit 31: zygote, never */
        memcpy(data + sizeof(size_t), &rec->num, sizeof(size_t));
        memcpy(data + 2 * sizeof(size_t), pcs, n * sizeof(uintptr_t));
      }
      *info = (uint8_t *)(h + 1);
      *info_size = entry;
      *overall_size = entry * r.n;
      *backtrace_size = frames;
    }
  }
  md_live_records_free(&r);
}

MD_EXPORT void free_malloc_leak_info(uint8_t *info) {
  if (MD_UNLIKELY(!md_copy_active())) {
    if (md_forward.free_leak_info)
      md_forward.free_leak_info(info);
    return;
  }
  if (!info)
    return;
  struct info_header *h = (struct info_header *)info - 1;
  if (((uintptr_t)info & 4095) != sizeof(struct info_header) ||
      h->magic != INFO_MAGIC) {
    md_log("mdebug: free_malloc_leak_info(%p): not a buffer from "
           "get_malloc_leak_info; ignored", (void *)info);
    return;
  }
  h->magic = 0;
  md_munmap(h, h->bytes);
}

MD_EXPORT ssize_t malloc_backtrace(void *pointer, uintptr_t *frames,
                                   size_t frame_count) {
  if (MD_UNLIKELY(!md_copy_active()))
    return md_forward.backtrace
               ? md_forward.backtrace(pointer, frames, frame_count)
               : 0;
  if (!pointer || !frames)
    return 0;
  md_ensure_init();
  struct md_block b;
  if (!md_backtrace_enabled() || md_heap_find(pointer, &b) != MD_BLOCK ||
      md_block_state(&b) != MD_STATE_LIVE || !b.stacks)
    return 0;
  size_t n;
  const uintptr_t *pcs = md_depot_get(b.stacks->alloc_stack, &n);
  if (n > frame_count)
    n = frame_count;
  memcpy(frames, pcs, n * sizeof(uintptr_t));
  return (ssize_t)n;
}
