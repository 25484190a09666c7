/* signals.c - work the program asks for with a signal, as in malloc debug:
 *   SIGRTMAX-19  backtrace_enable_on_signal: allocation stacks on/off
 *   SIGRTMAX-18  record_allocs: write the records to record_allocs_file
 *   SIGRTMAX-17  backtrace: write a heap dump to PREFIX.PID.txt
 *   SIGRTMAX-16  check_unreachable_on_signal: report unreachable blocks
 *   SIGRTMAX-15  log_allocator_stats_on_signal: log allocator statistics
 *   SIGRTMAX-14  heap profile (snapshot.c): append a snapshot
 *   SIGRTMAX-12  heap profile sampling (sample.c): tracking on/off
 * (the last two are mdebug's own, armed when a profile option is set;
 * SIGRTMAX-13 is the leak check's stop signal, stop_signal.c).
 *
 * A signal handler may interrupt a thread anywhere, inside the allocator
 * included, so it does nothing but flip an atomic flag (the toggle) or
 * write one byte to a pipe. A service thread, started by the runtime's
 * constructor when such an option is on, reads the pipe and does the work
 * at once, whether or not the program ever allocates again (malloc debug
 * waits for the next allocation). Its own start-up allocations are glibc's
 * (the thread's TLS table), charged to the loader. In a forked child the
 * thread is started again.
 *
 * SIGRTMAX-17 is armed in every run: without backtrace its handler only
 * says that no dump was written and how to get one, where the signal's
 * default action would end the program. Nothing else is started for it (a
 * service thread in every process would cost each forked child a thread
 * and break unshare(CLONE_NEWUSER), which needs a single thread).
 *
 * In a setuid/setgid program (AT_SECURE) nothing is armed: the real user
 * may signal the process, and would then choose when it stops its threads,
 * prints its heap's addresses or grows its stack depot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "heapdump.h"
#include "leak.h"
#include "log.h"
#include "options.h"
#include "platform.h"
#include "profiler.h"
#include "record.h"
#include "signals.h"
#include "stacks.h"
#include "stats.h"

enum action {
  TOGGLE, RECORDS, HEAP_DUMP, UNREACHABLE, STATS, SNAPSHOT, TRACK, ACTIONS
};

static const struct {
  int below_max; /* the signal is SIGRTMAX - below_max */
  const char *run; /* verbose: "Run: 'kill -N PID' to <run>." */
} signals[ACTIONS] = {
    [TOGGLE] = {19, "enable backtracing"},
    [RECORDS] = {18, "dump the allocation records"},
    [HEAP_DUMP] = {17, "dump the backtrace"},
    [UNREACHABLE] = {16, "check for unreachable memory"},
    [STATS] = {15, "log allocator stats"},
    [SNAPSHOT] = {14, "append a snapshot to the heap profile"},
    [TRACK] = {12, "turn the tracking of sampled blocks on or off"},
};

static bool wanted(enum action a) {
  switch (a) {
  case TOGGLE:
    return md_opt.backtrace_enable_on_signal != 0;
  case RECORDS:
    return md_opt.record_allocs != 0;
  case HEAP_DUMP:
    return md_backtrace_frames() != 0;
  case UNREACHABLE:
    return md_opt.check_unreachable_on_signal != 0;
  case STATS:
    return md_opt.log_allocator_stats_on_signal != 0;
  case SNAPSHOT:
    return md_profiling();
  case TRACK:
    return md_sample_configured();
  case ACTIONS:
    break;
  }
  return false;
}

static int pipe_fds[2] = {-1, -1};

MD_COLD static void on_signal(int sig) {
  int saved = errno;
  if (sig == SIGRTMAX - signals[TOGGLE].below_max) {
    md_backtrace_toggle(); /* one atomic store: safe here, and immediate */
  } else if (sig == SIGRTMAX - signals[TRACK].below_max) {
    md_sample_toggle(); /* atomic stores too */
  } else {
    char what = (char)(SIGRTMAX - sig);
    if (write(pipe_fds[1], &what, 1) < 0) {
      /* the pipe is full: that work is pending already */
    }
  }
  errno = saved;
}

/* SIGRTMAX-17 without backtrace. md_log drops the line rather than wait
 * when this thread was inside a report. */
MD_COLD static void on_unarmed_dump(int sig) {
  (void)sig;
  int saved = errno;
  md_log("mdebug: SIGRTMAX-17 received: heap dumps on this signal need the "
         "backtrace option (MDEBUG_OPTIONS=backtrace); nothing written "
         "(mdebug_dump_heap() writes one without it)");
  errno = saved;
}

/* Arms SIGRTMAX-17 to say why it does nothing, unless the program inherited
 * it ignored. */
static void arm_unarmed_dump(void) {
  int sig = SIGRTMAX - signals[HEAP_DUMP].below_max;
  struct sigaction sa, old;
  if (sigaction(sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
      (old.sa_flags & SA_SIGINFO))
    return;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_unarmed_dump;
  sa.sa_flags = SA_RESTART | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
}

MD_COLD static void *service(void *arg) {
  (void)arg;
  char what;
  for (;;) {
    ssize_t n = read(pipe_fds[0], &what, 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return NULL;
    if (what == signals[RECORDS].below_max) {
      md_record_write(false);
    } else if (what == signals[HEAP_DUMP].below_max) {
      md_heap_dump_auto(false);
    } else if (what == signals[UNREACHABLE].below_max) {
      md_log("mdebug: SIGRTMAX-16 received: checking for unreachable memory");
      md_leak_check_now();
    } else if (what == signals[STATS].below_max) {
      md_stats_log();
    } else if (what == signals[SNAPSHOT].below_max) {
      md_snapshot_take("signal");
    }
  }
}

static bool open_pipe(void) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    md_log("mdebug: cannot create the signal pipe: %s; signals will do "
           "nothing", strerror(errno));
    return false;
  }
  /* The reader blocks; only the writer (the handler) must never block. */
  int flags = fcntl(fds[0], F_GETFL);
  fcntl(fds[0], F_SETFL, flags & ~O_NONBLOCK);
  pipe_fds[0] = fds[0];
  __atomic_store_n(&pipe_fds[1], fds[1], __ATOMIC_RELEASE);
  return true;
}

static void start_service(void) {
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&t, &attr, service, NULL) != 0)
    md_log("mdebug: cannot start the signal service thread; signals will "
           "do nothing");
  pthread_attr_destroy(&attr);
}

void md_signals_init(void) {
  bool any = false, need_thread = false;
  for (int a = 0; a < ACTIONS; a++)
    if (wanted(a)) {
      any = true;
      need_thread |= a != TOGGLE && a != TRACK;
    }
  if (!wanted(HEAP_DUMP) && !md_secure())
    arm_unarmed_dump();
  if (!any)
    return;
  if (md_secure()) {
    md_log("mdebug: signals SIGRTMAX-19..-14 and -12 are not armed in a "
           "setuid/setgid program (AT_SECURE): the user running it may "
           "send them");
    return;
  }
  if (need_thread && !open_pipe())
    return;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int a = 0; a < ACTIONS; a++) {
    if (!wanted(a))
      continue;
    int sig = SIGRTMAX - signals[a].below_max;
    if (sigaction(sig, &sa, NULL) != 0)
      md_log("mdebug: Unable to set up the signal %d handler: %s", sig,
             strerror(errno));
    else if (md_opt.verbose)
      md_log("mdebug: %s: Run: 'kill -%d %d' to %s.", md_progname(), sig,
             md_getpid(), signals[a].run);
  }
  if (need_thread)
    start_service();
}

/* The child gets its own pipe: sharing the parent's, its service thread
 * could take the parent's requests. */
void md_signals_atfork_child(void) {
  if (pipe_fds[0] < 0)
    return;
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  pipe_fds[0] = pipe_fds[1] = -1;
  if (!open_pipe())
    return;
  start_service();
}
