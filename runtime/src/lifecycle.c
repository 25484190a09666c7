/* lifecycle.c - runs lifecycle.def: the active copy's start-up steps and
 * the runtime's one set of fork handlers, in the table's order (its header
 * says which way each phase walks it, and why the rows are where they are).
 *
 * Registered once (md_lifecycle_register, from init.c once the heap is up;
 * md_lifecycle_start from init.c's constructor, which an inert copy leaves
 * before it: an inert copy starts nothing and handles no fork). The
 * handlers take and drop locks and reset state; they never allocate
 * through malloc themselves (the child's thread starters do, last, when
 * every lock is usable again). A raw fork (symbolize.c's helper) runs none
 * of this.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "access.h"
#include "crash.h"
#include "heap.h"
#include "heapdump.h"
#include "leak.h"
#include "lifecycle.h"
#include "log.h"
#include "mappings.h"
#include "origin.h"
#include "profiler.h"
#include "quarantine.h"
#include "record.h"
#include "signals.h"
#include "stacks.h"
#include "stop.h"
#include "thread_stacks.h"
#include "threshold.h"

#define MD_FORK_UNHANDLED(lock, why)
#define MD_LIFECYCLE(name, start, prepare, parent, child, flags, locks)        \
  {#name, start, prepare, parent, child, flags, locks},
const struct md_lifecycle_row md_lifecycle[] = {
#include "lifecycle.def"
};
#undef MD_LIFECYCLE
#undef MD_FORK_UNHANDLED
const size_t md_lifecycle_count = sizeof(md_lifecycle) / sizeof(md_lifecycle[0]);

unsigned md_fork_epoch;

void md_lifecycle_run(const struct md_lifecycle_row *rows, size_t n,
                      enum md_lifecycle_phase phase) {
  if (phase == MD_LC_PREPARE) {
    for (size_t i = 0; i < n; i++)
      if (rows[i].prepare)
        rows[i].prepare();
    return;
  }
  for (size_t i = n; i-- > 0;) {
    void (*step)(void) = phase == MD_LC_PARENT  ? rows[i].parent
                         : phase == MD_LC_CHILD ? rows[i].child
                                                : rows[i].start;
    if (step)
      step();
  }
}

static void prepare(void) {
  md_lifecycle_run(md_lifecycle, md_lifecycle_count, MD_LC_PREPARE);
}
static void parent(void) {
  md_lifecycle_run(md_lifecycle, md_lifecycle_count, MD_LC_PARENT);
}
static void child(void) {
  md_fork_epoch++; /* first: what the child allocates from here is its own */
  md_lifecycle_run(md_lifecycle, md_lifecycle_count, MD_LC_CHILD);
}

void md_lifecycle_register(void) { pthread_atfork(prepare, parent, child); }

void md_lifecycle_start(void) {
  md_lifecycle_run(md_lifecycle, md_lifecycle_count, MD_LC_START);
}
