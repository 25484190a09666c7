/* init.c - start-up and shut-down: options, the heap, and the exit-time
 * checks that end in the summary line and the exit status. What starts
 * after the heap (threads, /proc files, signal handlers) and what happens
 * at fork are lifecycle.def's rows, run by lifecycle.c from here: the
 * runtime's one constructor and one pthread_atfork.
 *
 * Only the process's active copy of the runtime (copies.c) ever starts.
 * Initialisation runs inside the first allocation, whichever thread makes
 * it; it must not allocate (a re-entry would find the runtime half built, so
 * it is fatal rather than silent). The exit handler is registered from a
 * high-priority constructor, so it runs after the program's own atexit
 * handlers and static destructors.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "access.h"
#include "copies.h"
#include "guard.h"
#include "heap.h"
#include "heapdump.h"
#include "init.h"
#include "leak.h"
#include "lifecycle.h"
#include "lock.h"
#include "options.h"
#include "origin.h"
#include "platform.h"
#include "profiler.h"
#include "quarantine.h"
#include "record.h"
#include "report.h"
#include "stacks.h"
#include "stats.h"

int md_init_state; /* 0 none, 1 running, 2 ready, 3 exit checks running */
static md_lock_t init_lock = MD_LOCK_INIT;
static __thread int initializing __attribute__((tls_model("initial-exec")));

/* While the exit checks run (state 3), other threads entering the
 * allocator wait, so the blocks being checked do not change under them.
 * Not forever: a waiting thread may hold a lock the checks need (the
 * loader's, inside dlopen, which dladdr takes to name a site); after
 * EXIT_WAIT_MS it goes on, which the block tables allow (a walk holds off
 * releases, and the leak scan takes what it reports while threads are
 * stopped). */
#define EXIT_WAIT_MS 2000
static int exiting_tid;

static void wait_for_exit_checks(void) {
  struct timespec pause = {0, 1000000};
  for (int ms = 0; ms < EXIT_WAIT_MS &&
                   __atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) == 3;
       ms++)
    nanosleep(&pause, NULL);
}

void md_init_slow(void) {
  if (!md_copy_active()) /* every way into an inert copy passes calls on */
    md_die("an inactive copy of the mdebug runtime was asked to initialise");
  int state = __atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE);
  if (state == 3) {
    if (md_gettid() != exiting_tid)
      wait_for_exit_checks();
    return;
  }
  md_access_prepare();
  if (initializing)
    md_die("an allocation re-entered mdebug during its initialisation");
  md_lock(&init_lock);
  if (__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) == 2) {
    md_unlock(&init_lock);
    return;
  }
  initializing = 1;
  md_init_state = 1;
  md_platform_init();
  md_options_init();
  md_backtrace_init(); /* before the heap: whether blocks keep stack ids */
  md_symbolize_init();
  md_origin_init();
  md_heap_init();
  md_access_init();
  md_guard_init();
  md_quarantine_init();
  md_record_init();
  md_counters_init();
  md_sample_init();
  md_snapshot_init();
  md_leak_init();
  md_lifecycle_register(); /* fork handlers: lifecycle.def */
  __atomic_store_n(&md_init_state, 2, __ATOMIC_RELEASE);
  initializing = 0;
  md_unlock(&init_lock);
  if (md_opt.help)
    md_options_print_help();
  if (md_opt.verbose)
    md_options_print_active();
}

static void at_exit(void) {
  if (__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) != 2)
    return;
  /* What the program wrote comes before what we report about it. */
  fflush(NULL);
  /* Threads still running wait at their next allocator call; give those
   * already inside one a moment to leave it. */
  exiting_tid = md_gettid();
  __atomic_store_n(&md_init_state, 3, __ATOMIC_RELEASE);
  struct timespec settle = {0, 2000000};
  nanosleep(&settle, NULL);
  md_quarantine_drain();
  md_guard_check_live();
  md_leak_report_at_exit();
  /* malloc debug's order: records, heap dump, statistics. */
  if (md_opt.record_allocs_on_exit)
    md_record_write(true);
  /* Without backtrace, the dump has sites and sizes, no stacks. */
  if (md_opt.backtrace_dump_on_exit)
    md_heap_dump_auto(true);
  if (md_opt.log_allocator_stats_on_exit)
    md_stats_log();
  md_snapshot_at_exit();
  int status = md_report_summary();
  if (status >= 0 && !md_opt.exit_runs_atexit) {
    /* exit() cannot change its status; end the process here, as the
     * sanitizers do (the program's output was flushed above). Exit
     * handlers registered before this one (libraries' destructors, what
     * they buffered) do not run. */
    _exit(status);
  }
  /* Later exit handlers may still need the other threads (a join). */
  __atomic_store_n(&md_init_state, 2, __ATOMIC_RELEASE);
  if (status >= 0) {
    /* exit_runs_atexit: exit() again from this handler. glibc supports
     * the nested call: it runs the handlers still registered (once each,
     * with the runtime working as after any exit handler of the program's)
     * then flushes stdio and ends with the last status given. What those
     * handlers do wrong is reported, after the summary, and does not change
     * the status. */
    exit(status);
  }
}

/* Present when AddressSanitizer's runtime is in the process. */
extern void __asan_init(void) __attribute__((weak));

/* Every copy of the runtime in the process runs this; only the active one
 * (copies.c) starts anything. */
__attribute__((constructor(101))) static void md_constructor(void) {
  md_access_prepare();
  if (__asan_init)
    md_die("AddressSanitizer is in this process too; mdebug and ASan both "
           "replace malloc and cannot run together (build one configuration "
           "with each)");
  if (!md_copy_active()) {
    md_copy_announce();
    return;
  }
  md_ensure_init();
  atexit(at_exit); /* before the start-up steps' own exit handlers */
  md_lifecycle_start(); /* lifecycle.def: threads, /proc files, handlers */
}
