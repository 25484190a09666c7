/* fill.c - fill_on_alloc (0xeb), fill_on_free (0xef), and the check that a
 * block in the free_track quarantine still holds its free fill.
 * Never allocates.
 */
#include <string.h>

#include "chunk.h"

static size_t fill_length(const struct md_chunk *c, size_t limit) {
  size_t usable = md_chunk_usable(c);
  return limit < usable ? limit : usable;
}

void md_fill_on_alloc(struct md_chunk *c) {
  memset(md_chunk_user(c), MD_FILL_ALLOC, fill_length(c, md_opt.fill_on_alloc));
}

void md_fill_on_free(struct md_chunk *c) {
  if (md_opt.fill_on_free)
    memset(md_chunk_user(c), MD_FILL_FREE, fill_length(c, md_opt.fill_on_free));
}

bool md_fill_check_freed(struct md_chunk *c, bool at_exit) {
  unsigned char *user = md_chunk_user(c);
  size_t n = fill_length(c, md_opt.fill_on_free);
  if (MD_LIKELY(md_chunk_is_freed(c) && md_bytes_all(user, n, MD_FILL_FREE)))
    return true;
  if (!md_report_begin(MD_ERR_USE_AFTER_FREE))
    return false;
  if (!md_chunk_is_freed(c))
    md_report_line("+++ ALLOCATION %p HAS CORRUPTED HEADER TAG 0x%x AFTER FREE",
                   user, c->tag);
  else {
    md_report_line("+++ ALLOCATION %p USED AFTER FREE", user);
    md_report_evidence(user, n, 0, MD_FILL_FREE);
    md_report_line("  the block had size %zu", (size_t)c->size);
  }
  md_report_origin("allocated", c->alloc_op, c->alloc_origin);
  md_report_origin("freed", c->free_op, c->free_origin);
  if (at_exit)
    md_report_line("  detected at exit, in the free_track quarantine");
  else
    md_report_line("  detected when the block left the free_track quarantine "
                   "(the last %zu freed blocks are kept)", md_opt.free_track);
  md_report_chunk_stacks(c);
  md_report_end();
  return false;
}
