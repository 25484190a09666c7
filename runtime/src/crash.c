/* crash.c - a word from mdebug when the program dies of SIGSEGV, SIGBUS or
 * abort(): the SUMMARY line of what was reported so far (report.c), before
 * the signal takes the process down.
 *
 * The program's own handling comes first. mdebug's handler is installed at
 * start-up, by the active copy only, for those of the signals whose
 * disposition is still the default: a handler installed earlier (by another
 * library) is left alone, and one the program installs later replaces it
 * (and may chain to it). The handler runs once (SA_RESETHAND: the
 * disposition is the default again when it starts), prints, and raises the
 * signal again, so the process still dies of it: same exit status, same
 * core dump. The main thread gets an alternate signal stack, mapped (never
 * malloc'ed), unless it has one, so that a stack overflow is reported too.
 * The handler never allocates and never waits on a lock for long.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static const struct {
  int sig;
  const char *name, *what;
} fatal[] = {
    {SIGSEGV, "SIGSEGV", "segmentation fault"},
    {SIGBUS, "SIGBUS", "bus error"},
    {SIGABRT, "SIGABRT", "aborted"},
};
#define FATAL_COUNT (sizeof(fatal) / sizeof(fatal[0]))

static int summarised; /* by the first thread to die */

static void on_fatal(int sig) {
  int saved = errno;
  if (!__atomic_exchange_n(&summarised, 1, __ATOMIC_ACQ_REL))
    for (size_t i = 0; i < FATAL_COUNT; i++)
      if (fatal[i].sig == sig)
        md_report_fatal_summary(fatal[i].name, fatal[i].what);
  /* The default disposition (SA_RESETHAND set it already, unless a handler
   * of the program chained here), then the signal again: pending until
   * this handler returns, it then ends the process (a fault would also
   * recur as the instruction runs again). */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof(dfl));
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  raise(sig);
  errno = saved;
}

/* An alternate stack for the calling (main) thread, if it has none. */
static void add_alternate_stack(void) {
  stack_t old;
  if (sigaltstack(NULL, &old) != 0 || !(old.ss_flags & SS_DISABLE))
    return;
  size_t size = 64 << 10;
  long min = sysconf(_SC_MINSIGSTKSZ);
  if (min > 0 && (size_t)min * 4 > size)
    size = (size_t)min * 4;
  stack_t ss;
  memset(&ss, 0, sizeof(ss));
  ss.ss_sp = md_mmap(size);
  ss.ss_size = size;
  if (ss.ss_sp && sigaltstack(&ss, NULL) != 0)
    md_munmap(ss.ss_sp, size);
}

void md_crash_init(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_fatal;
  sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < FATAL_COUNT; i++) {
    struct sigaction old;
    if (sigaction(fatal[i].sig, NULL, &old) != 0 ||
        (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
      continue; /* someone else handles it */
    if (sigaction(fatal[i].sig, &sa, NULL) == 0 && fatal[i].sig == SIGSEGV)
      add_alternate_stack();
  }
}
