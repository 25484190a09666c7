/* log.c - the sink every line mdebug writes goes through: the log_path
 * file (PATH.PID, opened on first use under outfile.c's rules, opened anew
 * in a forked child or when the program took its descriptor) or stderr.
 * One lock, so lines of different threads never interleave; a per-thread
 * flag, so a line started while the same thread is already writing (a
 * fault in our own printing, a signal handler) is dropped, not deadlocked.
 * md_log writes one-line notes; report.c builds reports on the same sink.
 *
 * The bottom of the runtime's output: calls only print.c, outfile.c, the
 * options' log_path and the system, so the heap and every other layer may
 * say something without calling up into the reports. Never allocates.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "lock.h"
#include "log.h"
#include "options.h"
#include "outfile.h"
#include "platform.h"
#include "print.h"

/* Tries for the lock before a dying thread writes without it. */
#define FATAL_LOCK_TRIES 100
/* A line longer than this is cut (a report line names at most a few paths). */
#define LINE_MAX_BYTES 1024

static md_lock_t sink_lock = MD_LOCK_INIT;
static __thread int writing __attribute__((tls_model("initial-exec")));
static int out_fd = -1, out_pid;
static dev_t out_dev; /* the log file out_fd was opened on */
static ino_t out_ino;

MD_COLD int md_fd_move_high(int fd) {
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

/* Whether out_fd still is the log file: the program may have closed it
 * (closing every descriptor, say) and opened a file of its own that got
 * the same number. */
static bool out_fd_is_ours(void) {
  struct stat st;
  return fstat(out_fd, &st) == 0 && st.st_dev == out_dev &&
         st.st_ino == out_ino;
}

/* The log file is opened on first use (and again in a forked child, whose
 * reports belong in its own PATH.PID, or when the program closed or
 * replaced the descriptor), under md_file_open's rules. Under sink_lock
 * (so a refusal is written here, on stderr, not through the sink). */
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
  out_fd = md_fd_move_high(out_fd);
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

/* A write to the log file failed (a full disk, a file size limit): say so
 * on stderr, once, and send this line and every later one there, so no
 * report is lost without a word. Under sink_lock. */
static void log_write_failed(int err, const char *line, size_t n) {
  char path[sizeof(md_opt.log_path) + 16], shown[4 * sizeof(path)];
  md_format(path, sizeof(path), "%s.%d", md_opt.log_path, out_pid);
  md_escape(shown, sizeof(shown), path, strlen(path));
  char note[sizeof(shown) + 160];
  size_t k = md_format(note, sizeof(note),
                       "mdebug: cannot write the log_path file %s: %s; "
                       "reporting to stderr from here on\n",
                       shown, strerror(err));
  md_write_all(2, note, k);
  close(out_fd);
  out_fd = -1;
  md_opt.log_path[0] = '\0';
  md_write_all(2, line, n);
}

MD_COLD static void write_out(const char *line, size_t n) {
  int fd = output_fd();
  int err = md_write_fully(fd, line, n);
  if (err && fd != 2)
    log_write_failed(err, line, n);
}

/* The rare line with a control byte in it, escaped; its buffer lives only
 * in this frame (reports run on small signal stacks too). */
MD_COLD static __attribute__((noinline)) void write_escaped(const char *line,
                                                            size_t n) {
  char safe[3 * LINE_MAX_BYTES];
  n = md_escape_controls(safe, sizeof(safe) - 1, line, n);
  safe[n++] = '\n';
  write_out(safe, n);
}

/* Names from outside (file and function names, argv[0], module paths) are
 * escaped where they are formatted; this is the net under them: a control
 * byte that still got into the line (a frame's name, say) is escaped as
 * md_escape escapes it, so nothing a program names can end a line early
 * and forge one. */
MD_COLD void md_sink_write(const char *line, size_t n) {
  char out[LINE_MAX_BYTES + 1];
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f) {
      write_escaped(line, n);
      return;
    }
  if (n > LINE_MAX_BYTES)
    n = LINE_MAX_BYTES;
  memcpy(out, line, n);
  out[n++] = '\n';
  write_out(out, n);
}

MD_COLD bool md_sink_enter(void) {
  if (writing)
    return false;
  writing = 1;
  md_lock(&sink_lock);
  return true;
}

/* The lock within FATAL_LOCK_TRIES tries (a dying thread, or one that
 * never runs again, may hold it): whether it was taken. */
static bool lock_a_while(void) {
  for (int tries = 0; tries < FATAL_LOCK_TRIES; tries++) {
    if (md_trylock(&sink_lock))
      return true;
    sched_yield();
  }
  return false;
}

MD_COLD int md_sink_enter_fatal(void) {
  if (writing)
    return -1;
  bool locked = lock_a_while();
  writing = 1;
  return locked;
}

MD_COLD void md_sink_leave(bool locked) {
  if (locked)
    md_unlock(&sink_lock);
  writing = 0;
}

MD_COLD bool md_sink_busy(void) { return writing != 0; }

MD_COLD bool md_sink_lock_dying(void) { return !writing && lock_a_while(); }

void md_sink_lock(void) { md_lock(&sink_lock); }
void md_sink_unlock(void) { md_unlock(&sink_lock); }

MD_COLD void md_log(const char *fmt, ...) {
  int saved_errno = errno;
  if (!md_sink_enter())
    return;
  char line[LINE_MAX_BYTES];
  va_list ap;
  va_start(ap, fmt);
  size_t n = md_vformat(line, sizeof(line) - 1, fmt, ap);
  va_end(ap);
  md_sink_write(line, n);
  md_sink_leave(true);
  errno = saved_errno;
}

void md_log_atfork_prepare(void) { md_lock(&sink_lock); }
void md_log_atfork_parent(void) { md_unlock(&sink_lock); }
void md_log_atfork_child(void) { md_lock_reset(&sink_lock); }
