/* refuse.c - requests no block can answer: a size over max_allocation_size,
 * a calloc or reallocarray whose count * size overflows, a pvalloc whose
 * size overflows when rounded up to a page, an alignment the call does not
 * accept. Each is reported at the request's site (AddressSanitizer's
 * allocation-size-too-big, calloc-overflow, reallocarray-overflow,
 * pvalloc-overflow, invalid-allocation-alignment,
 * invalid-aligned-alloc-alignment, invalid-posix-memalign-alignment), then
 * refused as the C library would: NULL with errno ENOMEM (sizes) or EINVAL
 * (alignments), posix_memalign's EINVAL as its result. With
 * allocator_may_return_null the refusal is quiet, as glibc's.
 *
 * Only the slow paths come here (every function is cold and out of line):
 * the allocation fast path carries one comparison against md_heap.max_size.
 * A real shortage of memory (an mmap that fails) is not refused here: it
 * stays glibc's quiet NULL. Never allocates.
 */
#include <errno.h>

#include "base.h"
#include "heap.h"
#include "init.h"
#include "options.h"
#include "refuse.h"
#include "report.h"
#include "site.h"

/* Cold code (refused sizes and alignments only): base.h. */
#pragma clang section text = "mdebug_cold"

/* The throwing forms of operator new: they never return NULL. */
static bool op_throws(unsigned op) {
  return op == MD_OP_new || op == MD_OP_new_array || op == MD_OP_new_aligned ||
         op == MD_OP_new_array_aligned;
}

/* The lines every refusal ends with: where, what the caller gets, the
 * stack. Then md_report_end (which counts it and may abort). */
static void finish(unsigned op, md_origin_t origin, int err) {
  md_report_origin("requested", op, origin);
  if (op_throws(op))
    md_report_line("  %s throws std::bad_alloc (its new-handler is not "
                   "called: no handler can make this request possible)",
                   md_op_name(op));
  else if (md_op_family(op) != MD_FAMILY_MALLOC) /* nothrow new */
    md_report_line("  %s (nothrow) returns NULL", md_op_name(op));
  else if (op == MD_OP_posix_memalign)
    md_report_line("  posix_memalign returns %s",
                   err == EINVAL ? "EINVAL" : "ENOMEM");
  else if (op == MD_OP_realloc || op == MD_OP_reallocarray)
    md_report_line("  %s returns NULL, errno %s; the block it was given is "
                   "left as it was",
                   md_op_name(op), err == EINVAL ? "EINVAL" : "ENOMEM");
  else
    md_report_line("  %s returns NULL, errno %s", md_op_name(op),
                   err == EINVAL ? "EINVAL" : "ENOMEM");
  md_report_current_stack();
  md_report_end();
}

/* Whether to report: the options are read (a refusal may be the first
 * call), and allocator_may_return_null is off. */
static bool reporting(void) {
  md_ensure_init();
  return !md_opt.allocator_may_return_null;
}

MD_NOINLINE void *md_refuse_size(size_t size, size_t align, unsigned op,
                                 md_origin_t origin) {
  if (reporting() && md_report_begin(MD_ERR_SIZE_TOO_BIG)) {
    size_t max = md_heap.max_size;
    if (size > max) {
      md_report_line("+++ ALLOCATION REQUEST OF %zu BYTES TOO BIG (%s)", size,
                     md_op_name(op));
      md_report_line("  requested size 0x%zx exceeds the maximum allocation "
                     "size 0x%zx (%zu bytes, max_allocation_size)",
                     size, max, max);
    } else {
      md_report_line("+++ ALLOCATION REQUEST WITH ALIGNMENT %zu TOO BIG (%s)",
                     align, md_op_name(op));
      md_report_line("  requested alignment 0x%zx (for %zu bytes) exceeds the "
                     "maximum allocation size 0x%zx (%zu bytes, "
                     "max_allocation_size)",
                     align, size, max, max);
    }
    finish(op, origin, ENOMEM);
  }
  errno = ENOMEM;
  return NULL;
}

MD_NOINLINE void *md_refuse_product(size_t n, size_t size, unsigned op,
                                    md_origin_t origin) {
  enum md_error kind = op == MD_OP_calloc ? MD_ERR_CALLOC_OVERFLOW
                                          : MD_ERR_REALLOCARRAY_OVERFLOW;
  if (reporting() && md_report_begin(kind)) {
    md_report_line("+++ ALLOCATION REQUEST OF %zu * %zu BYTES OVERFLOWS (%s)",
                   n, size, md_op_name(op));
    md_report_line("  count * size (0x%zx * 0x%zx) cannot be represented in "
                   "size_t",
                   n, size);
    finish(op, origin, ENOMEM);
  }
  errno = ENOMEM;
  return NULL;
}

MD_NOINLINE void *md_refuse_pvalloc(size_t size, size_t page, unsigned op,
                                    md_origin_t origin) {
  if (reporting() && md_report_begin(MD_ERR_PVALLOC_OVERFLOW)) {
    md_report_line("+++ ALLOCATION REQUEST OF %zu BYTES OVERFLOWS (%s)", size,
                   md_op_name(op));
    md_report_line("  size 0x%zx rounded up to the page size (0x%zx) cannot "
                   "be represented in size_t",
                   size, page);
    finish(op, origin, ENOMEM);
  }
  errno = ENOMEM;
  return NULL;
}

int md_refuse_alignment(size_t align, size_t size, unsigned op,
                        md_origin_t origin) {
  enum md_error kind =
      op == MD_OP_posix_memalign  ? MD_ERR_INVALID_POSIX_MEMALIGN_ALIGNMENT
      : op == MD_OP_aligned_alloc ? MD_ERR_INVALID_ALIGNED_ALLOC_ALIGNMENT
                                  : MD_ERR_INVALID_ALIGNMENT;
  int saved_errno = errno;
  if (reporting() && md_report_begin(kind)) {
    md_report_line("+++ ALLOCATION REQUEST WITH ALIGNMENT %zu INVALID (%s)",
                   align, md_op_name(op));
    if (op == MD_OP_posix_memalign)
      md_report_line("  alignment %zu (for %zu bytes) is not a power of two "
                     "multiple of sizeof(void *) (%zu)",
                     align, size, sizeof(void *));
    else
      md_report_line("  alignment %zu (for %zu bytes) is not a power of two",
                     align, size);
    finish(op, origin, EINVAL);
  }
  /* posix_memalign returns the error and leaves errno alone. */
  errno = op == MD_OP_posix_memalign ? saved_errno : EINVAL;
  return EINVAL;
}
