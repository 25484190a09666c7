/* procmaps.c - the one reader of /proc/self/maps (declared in
 * platform_linux.h): the heap's search for a free range at start-up,
 * unwind.c's stack bounds, page_guard's mapping count and the leak scan's
 * address-space map all read it here, one mapping at a time.
 *
 * Never allocates, takes no lock, and calls nothing of libc's (raw system
 * calls, plain loops; built with -fno-builtin so no loop becomes a memmove
 * call): safe inside the first allocation, in a crash handler on a nearly
 * full stack, and while every other thread is stopped.
 *
 * A line is "start-end perms offset major:minor inode   path"; the path is
 * the rest of the line (spaces included; the kernel writes a newline in a
 * name as "\012", so a line is always one mapping). A line longer than the
 * buffer gives its fields and the part of its path that fits, and the rest
 * is dropped.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>

#include "platform_linux.h"

bool md_maps_open(struct md_maps *it, const char *path, char *buf,
                  size_t size) {
  long fd = md_sys4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
  md_maps_open_fd(it, (int)fd, buf, size);
  if (fd < 0) {
    it->error = fd;
    it->eof = true;
    return false;
  }
  it->own_fd = true;
  return true;
}

void md_maps_open_fd(struct md_maps *it, int fd, char *buf, size_t size) {
  it->fd = fd;
  it->own_fd = false;
  it->skip = false;
  it->eof = false;
  it->error = 0;
  it->buf = buf;
  it->size = size;
  it->pos = it->len = 0;
}

void md_maps_close(struct md_maps *it) {
  if (it->own_fd && it->fd >= 0)
    md_sys1(SYS_close, it->fd);
  it->fd = -1;
  it->own_fd = false;
}

static int hex(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static uint64_t parse_hex(const char **p, const char *end) {
  uint64_t v = 0;
  for (int d; *p < end && (d = hex(**p)) >= 0; (*p)++)
    v = v << 4 | (uint64_t)d;
  return v;
}

static uint64_t parse_dec(const char **p, const char *end) {
  uint64_t v = 0;
  for (; *p < end && **p >= '0' && **p <= '9'; (*p)++)
    v = v * 10 + (uint64_t)(**p - '0');
  return v;
}

static void skip_spaces(const char **p, const char *end) {
  while (*p < end && **p == ' ')
    (*p)++;
}

/* [line, end): one line without its newline. */
static void parse(const char *line, const char *end, bool truncated,
                  struct md_maps_entry *m) {
  const char *p = line;
  m->start = (uintptr_t)parse_hex(&p, end);
  if (p < end && *p == '-')
    p++;
  m->end = (uintptr_t)parse_hex(&p, end);
  skip_spaces(&p, end);
  m->readable = m->writable = m->exec = m->shared = false;
  if (end - p >= 4) {
    m->readable = p[0] == 'r';
    m->writable = p[1] == 'w';
    m->exec = p[2] == 'x';
    m->shared = p[3] == 's';
    p += 4;
  }
  skip_spaces(&p, end);
  m->offset = parse_hex(&p, end);
  skip_spaces(&p, end);
  parse_hex(&p, end); /* major */
  if (p < end && *p == ':')
    p++;
  parse_hex(&p, end); /* minor */
  skip_spaces(&p, end);
  m->inode = parse_dec(&p, end);
  skip_spaces(&p, end);
  m->path = p;
  m->path_len = (size_t)(end - p);
  m->path_truncated = truncated;
}

/* Moves the unread bytes to the front. A plain loop: no memmove call. */
static void compact(struct md_maps *it) {
  if (it->pos == 0)
    return;
  size_t n = it->len - it->pos;
  for (size_t i = 0; i < n; i++)
    it->buf[i] = it->buf[it->pos + i];
  it->pos = 0;
  it->len = n;
}

bool md_maps_next(struct md_maps *it, struct md_maps_entry *m) {
  if (it->fd < 0 || it->size < MD_MAPS_MIN_BUFFER)
    return false;
  for (;;) {
    size_t nl = it->pos;
    while (nl < it->len && it->buf[nl] != '\n')
      nl++;
    if (nl < it->len) { /* a whole line, or the end of a long one */
      size_t begin = it->pos;
      it->pos = nl + 1;
      if (it->skip) {
        it->skip = false;
        continue;
      }
      parse(it->buf + begin, it->buf + nl, false, m);
      return true;
    }
    if (it->skip) { /* still inside a long line: drop what was read */
      it->pos = it->len = 0;
    } else {
      compact(it);
      if (it->len == it->size) { /* a line longer than the buffer */
        it->skip = true;
        it->pos = it->len;
        parse(it->buf, it->buf + it->len, true, m);
        return true;
      }
    }
    if (it->eof)
      break;
    long n = md_sys3(SYS_read, it->fd, it->buf + it->len, it->size - it->len);
    if (n == -EINTR)
      continue;
    if (n < 0) {
      it->error = n;
      it->eof = true;
      return false;
    }
    if (n == 0)
      it->eof = true;
    it->len += (size_t)n;
  }
  /* The end of the file: a last line without its newline. */
  if (!it->skip && it->pos < it->len) {
    size_t begin = it->pos;
    it->pos = it->len;
    parse(it->buf + begin, it->buf + it->len, false, m);
    return true;
  }
  return false;
}
