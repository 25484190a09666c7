/* platform_linux.h - the runtime's one Linux layer: how a
 * system call is made, how its errno is read, and the one reader of
 * /proc/self/maps (procmaps.c).
 *
 * System calls: md_sysN (arch_x86_64.h) is the only way. It returns the
 * kernel's result, -errno on failure, and touches neither errno nor
 * anything else of libc's: usable in the stop's tracer task (which shares
 * the caller's TLS), in a signal handler and inside the first allocation.
 * Where a caller must behave as the libc function it stands for (mmap.c's
 * interposed mmap, munmap, mremap, mprotect: set errno, return -1), it
 * passes the result through md_sys_errno. glibc's syscall() is not used:
 * it sets errno, which the callers above must not touch.
 *
 * The maps reader never allocates, takes no lock and calls nothing of
 * libc's: it reads with read(2) into a buffer its caller gives (a stack
 * array in a crash handler, an mmap'ed one during a leak scan) and parses
 * one line at a time, whatever the file's size.
 */
#ifndef MDEBUG_PLATFORM_LINUX_H
#define MDEBUG_PLATFORM_LINUX_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch_x86_64.h"

/* A raw system call's result as libc returns it: -1 with errno set on
 * failure (-4095..-1), the result otherwise (an address may be "negative"). */
static inline long md_sys_errno(long r) {
  if (r < 0 && r > -4096) {
    errno = (int)-r;
    return -1;
  }
  return r;
}

/* ---- /proc/self/maps, one mapping at a time (procmaps.c) ----------------
 *
 *   char buf[4096];
 *   struct md_maps it;
 *   struct md_maps_entry m;
 *   if (md_maps_open(&it, "/proc/self/maps", buf, sizeof(buf)))
 *     while (md_maps_next(&it, &m)) ...
 *   md_maps_close(&it);
 *
 * A line longer than the buffer (a path of up to PATH_MAX) still gives its
 * mapping, with the path cut (path_truncated); the buffer must hold the
 * fixed fields (MD_MAPS_MIN_BUFFER). The path is as the kernel writes it:
 * everything after the inode and its padding up to the end of the line,
 * spaces included, a newline in a name written as the four bytes "\012"
 * (so one line is always one mapping); the kernel does not escape a
 * backslash, so "\012" in a name reads the same. Not NUL-terminated; valid
 * until the next call. */
#define MD_MAPS_MIN_BUFFER 256

struct md_maps_entry {
  uintptr_t start, end;
  bool readable, writable, exec, shared;
  uint64_t offset;
  uint64_t inode;
  const char *path; /* path_len bytes; "" for an anonymous mapping */
  size_t path_len;
  bool path_truncated; /* the line was longer than the buffer */
};

struct md_maps {
  int fd;
  bool own_fd;  /* opened by md_maps_open: closed by md_maps_close */
  bool skip;    /* dropping the rest of a line longer than the buffer */
  bool eof;
  long error;   /* -errno of a failed read, else 0 */
  char *buf;
  size_t size, pos, len;
};

/* Opens path (normally "/proc/self/maps") with raw system calls; false
 * (it->error = -errno) if it cannot. */
bool md_maps_open(struct md_maps *it, const char *path, char *buf,
                  size_t size);
/* Reads fd from where it stands; md_maps_close leaves it open. */
void md_maps_open_fd(struct md_maps *it, int fd, char *buf, size_t size);
/* The next mapping; false at the end of the file or on a read error
 * (it->error). */
bool md_maps_next(struct md_maps *it, struct md_maps_entry *m);
void md_maps_close(struct md_maps *it);

#endif
