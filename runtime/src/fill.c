/* fill.c - fill_on_alloc (0xeb), fill_on_free (0xef), and the check that a
 * block in the free_track quarantine still holds its free fill.
 * Never allocates.
 */
#include <string.h>

#include "base.h"
#include "fill.h"
#include "heap.h"
#include "options.h"
#include "origin.h"
#include "report.h"

static size_t fill_length(const struct md_block *b, size_t limit) {
  size_t usable = md_block_usable(b);
  return limit < usable ? limit : usable;
}

void md_fill_on_alloc(const struct md_block *b) {
  memset(b->user, MD_FILL_ALLOC, fill_length(b, md_opt.fill_on_alloc));
}

void md_fill_on_free(const struct md_block *b) {
  if (md_opt.fill_on_free)
    memset(b->user, MD_FILL_FREE, fill_length(b, md_opt.fill_on_free));
}

bool md_fill_check_freed(const struct md_block *b, bool at_exit) {
  size_t n = fill_length(b, md_opt.fill_on_free);
  if (MD_LIKELY(md_bytes_all(b->user, n, MD_FILL_FREE)))
    return true;
  if (!md_report_begin(MD_ERR_USE_AFTER_FREE))
    return false;
  uint32_t bits = __atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE);
  md_report_line("+++ ALLOCATION %p USED AFTER FREE", b->user);
  md_report_evidence(b->user, n, 0, MD_FILL_FREE);
  md_report_line("  the block had size %zu", b->size);
  md_report_origin("allocated", MD_BITS_ALLOC_OP(bits),
                   md_origin_of(b->meta->alloc_origin));
  md_report_origin("freed", MD_BITS_FREE_OP(bits),
                   md_origin_of(b->meta->free_origin));
  if (at_exit)
    md_report_line("  detected at exit, in the free_track quarantine");
  else
    md_report_line("  detected when the block left the free_track quarantine "
                   "(the last %zu freed blocks are kept)", md_opt.free_track);
  md_report_block_stacks(b);
  md_report_end();
  return false;
}
