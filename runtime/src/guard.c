/* guard.c - front_guard and rear_guard: the bytes before (0xaa) and after
 * (0xbb) every block, checked when the block is freed or reallocated and,
 * for blocks still live, at exit.
 *
 * In the primary heap the guard area between two slots is shared (heap.h):
 * the rear guard of the block before (its first bytes, 0xbb, when
 * rear_guard asks for more than the front) and the front guard of the block
 * after (its last front_guard bytes, 0xaa). A block's rear guard is its
 * slack (0xbb) and, when that is shorter than rear_guard, the start of the
 * area after it. When a shared area is damaged, one report names one block:
 * the one before when the damage starts right at its end (the area's first
 * byte, with the block's bytes or its damaged slack guard just before: an
 * overflow), otherwise the one after (an underflow, or a stray write). A
 * block that finds damage belonging to its live neighbour leaves it to the
 * neighbour's check. After a report the damaged guard bytes are written
 * again, so one damage is one report.
 *
 * The checks compare words on the fast path; only a mismatch reaches the
 * report code. Never allocates.
 */
#include <string.h>

#include "base.h"
#include "guard.h"
#include "heap.h"
#include "origin.h"
#include "report.h"

bool md_guards_on;

void md_guard_init(void) {
  md_guards_on = md_heap.front_guard || md_heap.rear_guard;
}

static bool is_live(unsigned k, uint32_t i) {
  return i < md_fresh(k) &&
         MD_BITS_STATE(__atomic_load_n(&md_meta_at(k, i)->bits,
                                       __ATOMIC_ACQUIRE)) == MD_STATE_LIVE;
}

void md_guard_write(const struct md_block *b, uint32_t before) {
  size_t n, slack;
  unsigned char *rear = md_block_rear_guard(b, &n, &slack);
  memset(rear, MD_GUARD_REAR, slack);
  if (!b->klass) {
    unsigned char *front = md_block_front_guard(b, &n);
    memset(front, MD_GUARD_FRONT, n);
    return;
  }
  if (b->lead) /* an aligned block: what precedes it in its slot is guard */
    memset(b->user - b->lead * 16, MD_GUARD_FRONT, b->lead * 16);
  /* A slot never used has no guard areas yet; one whose pages went back to
   * the OS while it was free lost them (zeros now). Write them, unless a
   * live neighbour shares one: it wrote that one itself when it was
   * allocated. */
  if (md_heap.guard && (MD_BITS_STATE(before) == MD_STATE_NEVER ||
                        (MD_BITS_MARKS(before) & MD_MARK_RELEASED))) {
    if (b->index == 0 || !is_live(b->klass, b->index - 1))
      md_heap_write_area(b->klass, b->index);
    if (!is_live(b->klass, b->index + 1))
      md_heap_write_area(b->klass, b->index + 1);
  }
}

/* Whether `n` bytes of a guard area, from offset `at`, are intact. */
MD_COLD static bool area_intact(const unsigned char *p, size_t at, size_t n) {
  size_t rear_part = md_area_rear_part();
  size_t r = at < rear_part ? rear_part - at : 0;
  if (r > n)
    r = n;
  return md_bytes_all(p, r, MD_GUARD_REAR) &&
         md_bytes_all(p + r, n - r, MD_GUARD_FRONT);
}

/* Does damage to the guard area in front of slot i start at the end of a
 * live block in slot i - 1 (an overflow of that block)? */
MD_COLD static bool overflow_of_previous(unsigned k, uint32_t i) {
  if (i == 0 || !is_live(k, i - 1))
    return false;
  const unsigned char *area = md_slot_user(k, i) - md_heap.guard;
  if (area_intact(area, 0, 1))
    return false;
  struct md_block prev;
  md_heap_block_at(k, i - 1, &prev);
  size_t after = prev.room - md_block_usable(&prev);
  if (after == 0)
    return true; /* the previous block's bytes end at the area */
  /* Its slack is all guard only up to rear_guard bytes. */
  return after <= md_heap.rear_guard && area[-1] != MD_GUARD_REAR;
}

/* Evidence for `n` guard-area bytes from offset `at`, numbered from index0. */
MD_COLD static void area_evidence(const unsigned char *p, size_t at, size_t n,
                                  long index0) {
  size_t rear_part = md_area_rear_part();
  size_t r = at < rear_part ? rear_part - at : 0;
  if (r > n)
    r = n;
  md_report_evidence(p, r, index0, MD_GUARD_REAR);
  md_report_evidence(p + r, n - r, index0 + (long)r, MD_GUARD_FRONT);
}

MD_COLD static MD_NOINLINE void report(const struct md_block *b, bool front,
                                       unsigned op, md_origin_t origin) {
  enum md_error kind = front ? MD_ERR_FRONT_GUARD : MD_ERR_REAR_GUARD;
  if (!md_report_begin(kind))
    return;
  uint32_t bits = __atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE);
  size_t n, slack;
  md_report_line("+++ ALLOCATION %p SIZE %zu HAS A CORRUPTED %s GUARD",
                 b->user, b->size, front ? "FRONT" : "REAR");
  if (front) {
    unsigned char *g = md_block_front_guard(b, &n);
    md_report_evidence(g, n, -(long)n, MD_GUARD_FRONT);
  } else {
    unsigned char *g = md_block_rear_guard(b, &n, &slack);
    long at = (long)md_block_usable(b);
    md_report_evidence(g, slack, at, MD_GUARD_REAR);
    if (b->klass)
      area_evidence(g + slack, 0, n - slack, at + (long)slack);
  }
  md_report_origin("allocated", MD_BITS_ALLOC_OP(bits),
                   md_origin_of(b->meta->alloc_origin));
  if (origin)
    md_report_origin("detected", op, origin);
  else
    md_report_line("  detected at exit, in a block still allocated");
  md_report_block_stacks(b);
  if (origin)
    md_report_current_stack();
  md_report_end();
}

MD_COLD bool md_guard_check(const struct md_block *b, unsigned op,
                            md_origin_t origin) {
  bool ok = true;
  size_t n, slack;
  unsigned char *g = md_block_front_guard(b, &n);
  if (n && MD_UNLIKELY(!md_bytes_all(g, n, MD_GUARD_FRONT))) {
    /* Damage in the shared area that an overflow of the live block before
     * made is that block's to report. */
    bool mine = !b->klass ||
                !md_bytes_all(b->user - b->lead * 16, b->lead * 16,
                              MD_GUARD_FRONT) ||
                !overflow_of_previous(b->klass, b->index);
    if (mine) {
      report(b, true, op, origin);
      memset(g, MD_GUARD_FRONT, n);
      ok = false;
    }
  }
  g = md_block_rear_guard(b, &n, &slack);
  bool slack_ok = md_bytes_all(g, slack, MD_GUARD_REAR);
  if (n && MD_UNLIKELY(!slack_ok ||
                       (b->klass && !area_intact(g + slack, 0, n - slack)))) {
    bool mine = !b->klass || !slack_ok || !is_live(b->klass, b->index + 1) ||
                overflow_of_previous(b->klass, b->index + 1);
    if (mine) {
      report(b, false, op, origin);
      memset(g, MD_GUARD_REAR, slack);
      if (b->klass && n > slack) {
        size_t r = md_area_rear_part() < n - slack ? md_area_rear_part() : n - slack;
        memset(g + slack, MD_GUARD_REAR, r);
        memset(g + slack + r, MD_GUARD_FRONT, n - slack - r);
      }
      ok = false;
    }
  }
  return ok;
}

/* ---- at exit: every block still allocated --------------------------------- */

/* In the walk: metadata is never unmapped, and the exit checks hold the
 * other threads at their next allocator call, so a damaged block is still
 * there to report. */
static void check_live(const struct md_block *b, void *arg) {
  (void)arg;
  if (MD_UNLIKELY(!md_block_guards_intact(b)))
    md_guard_check(b, 0, 0);
}

void md_guard_check_live(void) {
  if (md_guards_on)
    md_heap_for_each(1u << MD_STATE_LIVE, check_live, NULL);
}
