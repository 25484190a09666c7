/* wait_file.h - helpers for tests of work mdebug's signal service thread
 * does on its own time (heap dumps, record files, logs): poll until the
 * file it writes is complete. Sleeps in slices, since signals cut a single
 * sleep short (EINTR). Never allocates (the tests count blocks). */
#ifndef WAIT_FILE_H
#define WAIT_FILE_H

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads the last len bytes of path into buf; -1 if it cannot. */
static int wait_file_tail(const char *path, char *buf, size_t len) {
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return -1;
  off_t size = lseek(fd, 0, SEEK_END);
  int ok = size >= (off_t)len &&
           pread(fd, buf, len, size - (off_t)len) == (ssize_t)len;
  close(fd);
  return ok ? 0 : -1;
}

/* Waits up to 10 s for path to exist and end with `ending` (a heap dump
 * ends with "END\n", a log with its last line); 1 when it does. */
static int wait_for_file_ending(const char *path, const char *ending) {
  char tail[256];
  size_t len = strlen(ending);
  for (int i = 0; i < 1000; i++) {
    if (wait_file_tail(path, tail, len) == 0 && memcmp(tail, ending, len) == 0)
      return 1;
    usleep(10000);
  }
  return 0;
}

/* Waits up to 10 s for path to exist with a non-zero size that stays the
 * same for 100 ms (a record file has no end marker); 1 when it does. */
static int wait_for_stable_file(const char *path) {
  off_t last = -1;
  int stable = 0;
  for (int i = 0; i < 1000; i++) {
    struct stat st;
    off_t size = stat(path, &st) == 0 ? st.st_size : -1;
    stable = size > 0 && size == last ? stable + 1 : 0;
    if (stable == 10)
      return 1;
    last = size;
    usleep(10000);
  }
  return 0;
}

/* Waits up to 10 s for path to contain text; 1 when it does. */
static int wait_for_text(const char *path, const char *text) {
  static char buf[65536];
  for (int i = 0; i < 1000; i++) {
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
      ssize_t n = read(fd, buf, sizeof(buf) - 1);
      close(fd);
      buf[n > 0 ? n : 0] = '\0';
      if (strstr(buf, text))
        return 1;
    }
    usleep(10000);
  }
  return 0;
}

#endif
