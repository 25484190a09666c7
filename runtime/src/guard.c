/* guard.c - front_guard and rear_guard: bytes of 0xaa before and 0xbb after
 * every block, written at allocation and checked when the block is freed,
 * reallocated, and (for blocks still live) at exit.
 * The check is a word compare on the fast path; only a mismatch reaches the
 * report code. Never allocates.
 */
#include <string.h>

#include "chunk.h"

void md_guard_write(struct md_chunk *c) {
  if (md_layout.front_guard)
    memset(md_chunk_front_guard(c), MD_GUARD_FRONT, md_layout.front_guard);
  if (md_layout.rear_guard)
    memset(md_chunk_rear_guard(c), MD_GUARD_REAR, md_layout.rear_guard);
}

static MD_NOINLINE void report(struct md_chunk *c, bool front, unsigned op,
                               md_origin_t origin) {
  enum md_error kind = front ? MD_ERR_FRONT_GUARD : MD_ERR_REAR_GUARD;
  if (!md_report_begin(kind))
    return;
  unsigned char *user = md_chunk_user(c);
  md_report_line("+++ ALLOCATION %p SIZE %zu HAS A CORRUPTED %s GUARD", user,
                 (size_t)c->size, front ? "FRONT" : "REAR");
  if (front)
    md_report_evidence(md_chunk_front_guard(c), md_layout.front_guard,
                       -(long)md_layout.front_guard, MD_GUARD_FRONT);
  else
    md_report_evidence(md_chunk_rear_guard(c), md_layout.rear_guard,
                       (long)md_chunk_usable(c), MD_GUARD_REAR);
  md_report_origin("allocated", c->alloc_op, c->alloc_origin);
  if (origin)
    md_report_origin("detected", op, origin);
  else
    md_report_line("  detected at exit, in a block still allocated");
  md_report_chunk_stacks(c);
  if (origin)
    md_report_current_stack();
  md_report_end();
}

bool md_guard_check(struct md_chunk *c, unsigned op, md_origin_t origin) {
  bool ok = true;
  if (md_layout.front_guard &&
      MD_UNLIKELY(!md_bytes_all(md_chunk_front_guard(c), md_layout.front_guard,
                          MD_GUARD_FRONT))) {
    report(c, true, op, origin);
    ok = false;
  }
  if (md_layout.rear_guard &&
      MD_UNLIKELY(!md_bytes_all(md_chunk_rear_guard(c), md_layout.rear_guard,
                          MD_GUARD_REAR))) {
    report(c, false, op, origin);
    ok = false;
  }
  return ok;
}

/* ---- at exit: every block still allocated --------------------------------- */

struct suspects {
  uintptr_t *v;
  size_t n, capacity;
};

/* Inside the walk, which keeps the block from being released: only looks.
 * Reporting waits until the walk is over (a report under a table lock
 * would order the report lock after it). */
static void look(void *user, void *arg) {
  struct suspects *s = arg;
  struct md_chunk *c = md_chunk_of(user);
  if (s->n < s->capacity &&
      ((md_layout.front_guard &&
        !md_bytes_all(md_chunk_front_guard(c), md_layout.front_guard,
                      MD_GUARD_FRONT)) ||
       (md_layout.rear_guard &&
        !md_bytes_all(md_chunk_rear_guard(c), md_layout.rear_guard,
                      MD_GUARD_REAR))))
    s->v[s->n++] = ~(uintptr_t)user; /* inverted: no root for a scan */
}

void md_guard_check_live(void) {
  if (!md_layout.front_guard && !md_layout.rear_guard)
    return;
  struct suspects s = {NULL, 0, 4096};
  s.v = md_mmap(s.capacity * sizeof(uintptr_t));
  if (!s.v)
    return;
  md_track_for_each(MD_TRACK_LIVE, look, &s);
  /* The exit checks hold the other threads at their next allocator call:
   * the corrupted blocks are still there to report. */
  for (size_t i = 0; i < s.n; i++)
    md_guard_check(md_chunk_of((void *)~s.v[i]), 0, 0);
  md_munmap(s.v, s.capacity * sizeof(uintptr_t));
}
