/* heap_report.c - the reports the heap makes about its own records: a
 * primary block's metadata that says more than its slot holds, a large
 * block's header that failed its check. The heap's one way up into the
 * reports (the contract md_heap_report_*, heap.h; runtime/src/layers.txt):
 * heap.c and secondary.c know what is wrong, this file how it is said.
 *
 * Never allocates; writes only through report.c.
 */
#include "heap.h"
#include "report.h"

/* Cold code (reports only): base.h. */
#pragma clang section text = "mdebug_cold"

void md_heap_report_damaged(const struct md_block *b, size_t said,
                            size_t fits, uint32_t bits) {
  if (!md_report_begin(MD_ERR_METADATA_CORRUPTED))
    return;
  md_report_line("+++ ALLOCATION %p METADATA CORRUPTED", (void *)b->user);
  md_report_line("  its metadata (at %p) says size %zu; its slot holds at "
                 "most %zu bytes: the program wrote into mdebug's metadata "
                 "array (a wild write?)",
                 (void *)b->meta, said, fits);
  md_report_line("  the block is taken to be %zu bytes (state %u, bits "
                 "0x%08x)",
                 b->size, MD_BITS_STATE(bits), bits);
  md_report_current_stack();
  md_report_end();
}

void md_heap_report_header(uintptr_t user, const void *header,
                           const char *when) {
  if (!md_report_begin(MD_ERR_METADATA_CORRUPTED))
    return;
  md_report_line("+++ ALLOCATION %p HEADER CORRUPTED", (void *)user);
  md_report_line("  the header of this large block, in the page at %p (%zu "
                 "bytes before the block), no longer holds what mdebug wrote "
                 "there: a stray write before the block?",
                 header, (size_t)(user - (uintptr_t)header));
  md_report_line("  detected %s; mdebug leaves the block's pages alone from "
                 "now on (never reused, unmapped or protected)", when);
  md_report_current_stack();
  md_report_end();
}
