/* report.c - the only writer of user-visible text: error reports, notes, the
 * summary line, and the exit status they imply.
 *
 * Never allocates. Reports from different threads never interleave (one
 * lock); a report started while the same thread is already reporting (a
 * fault in our own printing, a signal handler) is dropped, not deadlocked.
 * Decides in one place whether to go on or abort after an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "lock.h"

#define LOG_DIVIDER "*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***"

static const char *const titles[] = {
#define MD_ERROR(NAME, TITLE) TITLE,
#include "errors.def"
};

static md_lock_t report_lock = MD_LOCK_INIT;
static __thread int in_report __attribute__((tls_model("initial-exec")));
static size_t error_counts[MD_ERR_COUNT];
static size_t leaked_blocks, leaked_bytes;
static size_t leaked_maps, leaked_map_bytes; /* mappings (mmap.c) */
static enum md_error current;
static bool fatal_report, fatal_unlocked; /* md_report_begin_fatal's */
static int out_fd = -1, out_pid;
static dev_t out_dev; /* the log file out_fd was opened on */
static ino_t out_ino;

/* Whether out_fd still is the log file: the program may have closed it
 * (closing every descriptor, say) and opened a file of its own that got
 * the same number. */
static bool out_fd_is_ours(void) {
  struct stat st;
  return fstat(out_fd, &st) == 0 && st.st_dev == out_dev &&
         st.st_ino == out_ino;
}

/* Moves fd out of the program's way, to the lowest free number at or above
 * half the soft RLIMIT_NOFILE (at most 1024), close-on-exec; keeps fd if
 * that fails. */
static int move_high(int fd) {
  struct rlimit rl;
  rlim_t floor = 1024;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur / 2 < floor)
    floor = rl.rlim_cur / 2;
  if ((rlim_t)fd >= floor)
    return fd;
  int high = fcntl(fd, F_DUPFD_CLOEXEC, (int)floor);
  if (high < 0)
    return fd;
  close(fd);
  return high;
}

/* The log file is opened on first use (and again in a forked child, whose
 * reports belong in its own PATH.PID, or when the program closed or
 * replaced the descriptor), under md_file_open's rules. Called with
 * report_lock held (so a refusal is written here, not with md_log). */
static int output_fd(void) {
  int pid = md_getpid();
  if (!md_opt.log_path[0])
    return 2;
  if (out_fd >= 0) {
    bool ours = out_fd_is_ours();
    if (ours && out_pid == pid)
      return out_fd;
    if (ours)
      close(out_fd); /* the parent's, in a forked child */
    out_fd = -1;     /* not ours any more: never closed, never written */
  }
  char path[sizeof(md_opt.log_path) + 16];
  md_format(path, sizeof(path), "%s.%d", md_opt.log_path, pid);
  char why[MD_PATH_MAX * 2 + 128];
  out_fd = md_file_open(path, true, why, sizeof(why));
  out_pid = pid;
  if (out_fd < 0) {
    char line[sizeof(why) + 64];
    size_t n;
    if (why[0])
      n = md_format(line, sizeof(line), "mdebug: %s; reporting to stderr\n",
                    why);
    else
      n = md_format(line, sizeof(line),
                    "mdebug: cannot open log_path file %s: %s; reporting to "
                    "stderr\n", path, strerror(errno));
    md_write_all(2, line, n);
    md_opt.log_path[0] = '\0';
    return 2;
  }
  out_fd = move_high(out_fd);
  struct stat st;
  if (fstat(out_fd, &st) != 0) { /* cannot tell it later: do not keep it */
    close(out_fd);
    out_fd = -1;
    md_opt.log_path[0] = '\0';
    return 2;
  }
  out_dev = st.st_dev;
  out_ino = st.st_ino;
  return out_fd;
}

static void flush_evidence(void);

static void write_line(const char *fmt, va_list ap) {
  char line[1024];
  size_t n = md_vformat(line, sizeof(line) - 1, fmt, ap);
  line[n++] = '\n';
  md_write_all(output_fd(), line, n);
}

static void write_linef(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  write_line(fmt, ap);
  va_end(ap);
}

/* A report happens inside free, which must keep errno: begin saves it, end
 * gives it back (under the report lock). */
static int report_errno;

/* Reports that count as errors (and may abort); leaks are counted apart
 * (md_report_add_leaks), and a mapping leak note (leak.c, without
 * mapping_leaks_fail) is not counted at all. */
static bool counted(enum md_error kind) {
  return kind != MD_ERR_LEAK && kind != MD_ERR_MAPPING_LEAK;
}

/* The divider and header of a report ("NOTE" for a mapping leak note);
 * under report_lock. */
static void header(enum md_error kind) {
  current = kind;
  write_linef("%s", LOG_DIVIDER);
  write_linef("mdebug: %s: %s in %s (pid %d, tid %d)",
              kind == MD_ERR_MAPPING_LEAK ? "NOTE" : "ERROR", titles[kind],
              md_progname(), md_getpid(), md_gettid());
}

bool md_report_begin(enum md_error kind) {
  if (in_report)
    return false;
  int saved_errno = errno;
  in_report = 1;
  md_lock(&report_lock);
  report_errno = saved_errno;
  header(kind);
  return true;
}

/* A thread that dies of a signal may have held the lock when it faulted (it
 * is not inside a report: in_report says that), or another thread may hold
 * it and never run again: after a few tries, write anyway. */
bool md_report_begin_fatal(enum md_error kind) {
  if (in_report)
    return false;
  int saved_errno = errno;
  bool locked = false;
  for (int tries = 0; !locked && tries < 100; tries++)
    if (!(locked = md_trylock(&report_lock)))
      sched_yield();
  in_report = 1;
  fatal_report = true;
  fatal_unlocked = !locked;
  report_errno = saved_errno;
  header(kind);
  return true;
}

void md_report_line(const char *fmt, ...) {
  flush_evidence();
  va_list ap;
  va_start(ap, fmt);
  write_line(fmt, ap);
  va_end(ap);
}

/* Evidence lines of the current report: at most MAX_EVIDENCE, however many
 * calls make them; the rest are counted in one line before whatever comes
 * next. Under report_lock. */
enum { MAX_EVIDENCE = 64 };
static size_t evidence_shown, evidence_hidden;

static void flush_evidence(void) {
  if (evidence_hidden)
    write_linef("  ... %zu more corrupted bytes", evidence_hidden);
  evidence_hidden = 0;
}

size_t md_report_evidence(const unsigned char *bytes, size_t n, long index0,
                          unsigned char expected) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (bytes[i] == expected)
      continue;
    bad++;
    if (evidence_shown < MAX_EVIDENCE) {
      evidence_shown++;
      write_linef("  allocation[%ld] = 0x%02x (expected 0x%02x)",
                  index0 + (long)i, bytes[i], expected);
    } else {
      evidence_hidden++;
    }
  }
  return bad;
}

void md_report_origin(const char *what, unsigned op, md_origin_t origin) {
  char where[512];
  flush_evidence();
  md_origin_describe(where, sizeof(where), origin);
  write_linef("  %s by %s at %s", what, md_op_name(op), where);
}

void md_report_end(void) {
  enum md_error kind = current;
  flush_evidence();
  evidence_shown = 0;
  write_linef("%s", LOG_DIVIDER);
  if (counted(kind))
    error_counts[kind]++;
  int saved_errno = report_errno;
  bool fatal = fatal_report;
  if (!fatal_unlocked)
    md_unlock(&report_lock);
  fatal_report = fatal_unlocked = false;
  in_report = 0;
  errno = saved_errno;
  /* As in malloc debug, leaks never abort; nor does a fatal signal's report
   * (the signal ends the process, with its own status). */
  if (md_opt.abort_on_error && counted(kind) && !fatal) {
    md_log("mdebug: abort_on_error: aborting");
    abort();
  }
}

void md_log(const char *fmt, ...) {
  if (in_report)
    return;
  int saved_errno = errno;
  in_report = 1;
  md_lock(&report_lock);
  va_list ap;
  va_start(ap, fmt);
  write_line(fmt, ap);
  va_end(ap);
  md_unlock(&report_lock);
  in_report = 0;
  errno = saved_errno;
}

void md_report_add_leaks(size_t blocks, size_t bytes) {
  md_lock(&report_lock);
  leaked_blocks += blocks;
  leaked_bytes += bytes;
  md_unlock(&report_lock);
}

void md_report_add_leaked_mappings(size_t maps, size_t bytes) {
  md_lock(&report_lock);
  leaked_maps += maps;
  leaked_map_bytes += bytes;
  md_unlock(&report_lock);
}

/* ", N bytes leaked in K blocks" (", ... in K blocks and M mappings", ",
 * ... in M mappings") into line. */
static size_t format_leaks(char *line, size_t size) {
  size_t bytes = leaked_bytes + leaked_map_bytes;
  size_t n = md_format(line, size, ", %zu byte%s leaked in", bytes,
                       bytes == 1 ? "" : "s");
  if (leaked_blocks || !leaked_maps)
    n += md_format(line + n, size - n, " %zu block%s", leaked_blocks,
                   leaked_blocks == 1 ? "" : "s");
  if (leaked_maps)
    n += md_format(line + n, size - n, "%s %zu mapping%s",
                   leaked_blocks ? " and" : "", leaked_maps,
                   leaked_maps == 1 ? "" : "s");
  return n;
}

/* "mdebug: SUMMARY: N errors (k of each kind)" into line; returns its
 * length. */
static size_t format_errors(char *line, size_t size, size_t errors) {
  size_t n = md_format(line, size, "mdebug: SUMMARY: %zu error%s", errors,
                       errors == 1 ? "" : "s");
  const char *sep = " (";
  for (int k = 0; k < MD_ERR_COUNT; k++) {
    if (!error_counts[k])
      continue;
    n += md_format(line + n, size - n, "%s%zu %s", sep, error_counts[k],
                   titles[k]);
    sep = ", ";
  }
  if (errors)
    n += md_format(line + n, size - n, ")");
  return n;
}

int md_report_summary(void) {
  char line[1024];
  size_t n = 0, errors = 0;
  md_lock(&report_lock);
  for (int k = 0; k < MD_ERR_COUNT; k++)
    errors += error_counts[k];
  if (errors == 0 && leaked_blocks == 0 && leaked_maps == 0) {
    md_unlock(&report_lock);
    return -1;
  }
  n += format_errors(line, sizeof(line), errors);
  n += format_leaks(line + n, sizeof(line) - n);
  write_linef("%s", line);
  md_unlock(&report_lock);
  return md_opt.exitcode ? (int)md_opt.exitcode : -1;
}

/* A thread that is inside a report holds the lock; it is dying, so write
 * over its report. Another thread may hold it and never run again: after a
 * few tries, write anyway (a line may interleave; nothing waits). */
void md_report_fatal_summary(const char *signal, const char *what) {
  bool locked = false;
  for (int tries = 0; !in_report && !locked && tries < 100; tries++) {
    locked = md_trylock(&report_lock);
    if (!locked)
      sched_yield();
  }
  size_t errors = 0;
  for (int k = 0; k < MD_ERR_COUNT; k++)
    errors += error_counts[k];
  char line[1024];
  size_t n = format_errors(line, sizeof(line), errors);
  if (leaked_blocks || leaked_maps)
    n += format_leaks(line + n, sizeof(line) - n);
  md_format(line + n, sizeof(line) - n,
            ", then %s (%s); leaks at exit not checked", signal, what);
  write_linef("%s", line);
  if (locked)
    md_unlock(&report_lock);
}

void md_report_atfork_prepare(void) { md_lock(&report_lock); }
void md_report_atfork_parent(void) { md_unlock(&report_lock); }
void md_report_atfork_child(void) { md_lock_reset(&report_lock); }
