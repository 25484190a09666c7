/* outfile.c - every file mdebug writes is opened here (md_file_open: the
 * log file, heap dumps, allocation records), under one set of rules, and
 * buffered writing of the dumps and records: formatted lines into a fixed
 * buffer, written with write(2). Never allocates; one md_out lives on the
 * caller's stack.
 *
 * The names are predictable (/tmp/backtrace_heap.PID.txt) and the process
 * may be root, so a file is written only if it is safe to: never through a
 * symbolic link, never a FIFO, device or socket (an open that blocks
 * forever, or writes that go somewhere else), never a file another user
 * owns or one with a second name (a hard link to a file that matters), and
 * never truncated before those checks. New files are private (0600). A
 * setuid/setgid process writes no file at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "options.h"
#include "outfile.h"
#include "platform.h"
#include "print.h"

/* Cold code (the files of dumps, records and the log file only): base.h. */
#pragma clang section text = "mdebug_cold"

static const char *kind_of(mode_t mode) {
  switch (mode & S_IFMT) {
  case S_IFLNK:
    return "a symbolic link";
  case S_IFIFO:
    return "a FIFO, not a regular file";
  case S_IFSOCK:
    return "a socket, not a regular file";
  case S_IFDIR:
    return "a directory, not a regular file";
  case S_IFCHR:
    return "a character device, not a regular file";
  case S_IFBLK:
    return "a block device, not a regular file";
  }
  return "not a regular file";
}

static int refuse(const char *path, char *why, size_t why_size, int err,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int refuse(const char *path, char *why, size_t why_size, int err,
                  const char *fmt, ...) {
  char shown[MD_PATH_MAX * 2];
  md_escape(shown, sizeof(shown), path, strlen(path));
  size_t n = md_format(why, why_size, "refusing to write %s: ", shown);
  va_list ap;
  va_start(ap, fmt);
  md_vformat(why + n, why_size - n, fmt, ap);
  va_end(ap);
  errno = err;
  return -1;
}

int md_file_open(const char *path, bool append, char *why, size_t why_size) {
  why[0] = '\0';
  if (md_secure())
    return refuse(path, why, why_size, EPERM,
                  "a setuid/setgid program (AT_SECURE) writes no files");
  /* No O_TRUNC: nothing is changed before the checks below pass. */
  int fd = open(path,
                O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK |
                    (append ? O_APPEND : 0),
                0600);
  if (fd < 0) {
    int err = errno;
    struct stat st;
    /* ELOOP (a symbolic link), ENXIO (a FIFO with no reader, a socket),
     * EISDIR...: say what is there if it is not a regular file. */
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
      return refuse(path, why, why_size, err, "it is %s",
                    kind_of(st.st_mode));
    errno = err;
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    errno = err;
    return -1;
  }
  uid_t me = geteuid();
  int bad = 0;
  if (!S_ISREG(st.st_mode))
    bad = refuse(path, why, why_size, EINVAL, "it is %s", kind_of(st.st_mode));
  else if (st.st_uid != me)
    bad = refuse(path, why, why_size, EPERM,
                 "it belongs to uid %u, not to this process (uid %u)",
                 (unsigned)st.st_uid, (unsigned)me);
  else if (st.st_nlink > 1)
    bad = refuse(path, why, why_size, EPERM,
                 "it has %lu hard links (another name for the same file)",
                 (unsigned long)st.st_nlink);
  if (!bad) {
    int flags = fcntl(fd, F_GETFL);
    if (flags == -1 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
        (!append && ftruncate(fd, 0) != 0))
      bad = -1;
  }
  if (bad) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

bool md_out_open(struct md_out *o, const char *path) {
  o->used = 0;
  o->failed = false;
  o->fd = md_file_open(path, false, o->refusal, sizeof(o->refusal));
  return o->fd >= 0;
}

static void flush(struct md_out *o) {
  size_t done = 0;
  while (done < o->used && !o->failed) {
    ssize_t n = write(o->fd, o->buf + done, o->used - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      o->failed = true;
    else
      done += (size_t)n;
  }
  o->used = 0;
}

void md_out_write(struct md_out *o, const char *data, size_t len) {
  while (len > 0) {
    if (o->used == sizeof(o->buf))
      flush(o);
    size_t room = sizeof(o->buf) - o->used;
    size_t n = len < room ? len : room;
    memcpy(o->buf + o->used, data, n);
    o->used += n;
    data += n;
    len -= n;
  }
}

void md_out_printf(struct md_out *o, const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  size_t n = md_vformat(line, sizeof(line), fmt, ap);
  va_end(ap);
  md_out_write(o, line, n);
}

/* Copies a whole file (e.g. /proc/self/maps) into the output, its lines
 * kept and any other control byte escaped (md_escape_controls): the kernel
 * writes a newline in a path as "\\012" but an escape byte as it is. */
bool md_out_copy_file(struct md_out *o, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  char chunk[4096];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    size_t from = 0;
    for (size_t i = 0; i < (size_t)n; i++) {
      unsigned char c = (unsigned char)chunk[i];
      if ((c >= 0x20 && c != 0x7f) || c == '\n')
        continue;
      char esc[8];
      md_out_write(o, chunk + from, i - from);
      md_out_write(o, esc, md_escape_controls(esc, sizeof(esc), chunk + i, 1));
      from = i + 1;
    }
    md_out_write(o, chunk + from, (size_t)n - from);
  }
  close(fd);
  return true;
}

/* Flushes and closes; false if any write failed (errno says why). */
bool md_out_close(struct md_out *o) {
  flush(o);
  int saved = errno;
  close(o->fd);
  o->fd = -1;
  errno = saved;
  return !o->failed;
}
