/* outfile.c - buffered writing of the files mdebug produces (heap dumps,
 * allocation records): formatted lines into a fixed buffer, written with
 * write(2). Never allocates; one md_out lives on the caller's stack.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

bool md_out_open(struct md_out *o, const char *path, int mode) {
  o->used = 0;
  o->failed = false;
  o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
               mode);
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

/* Copies a whole file (e.g. /proc/self/maps) into the output. */
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
    md_out_write(o, chunk, (size_t)n);
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
