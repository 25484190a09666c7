/* platform_linux.c - the system calls the runtime needs, made so that none of
 * them allocates through malloc or takes a libc lock that malloc holds.
 * Safe in a signal handler and before libc is fully initialised. Raw
 * system calls are made one way, md_sysN (platform_linux.h says why); the
 * maps file is read by procmaps.c. Also says
 * whether the process runs with privileges its caller lacks (AT_SECURE), and
 * keeps /proc descriptors open for the leak check (md_kept_*, raw system
 * calls only).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base.h"
#include "platform.h"
#include "platform_linux.h"
#include "print.h"
#include "scan_contract.h"

extern char **environ;
extern char *program_invocation_short_name;

void *md_mmap(size_t size) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void md_munmap(void *p, size_t size) {
  if (p)
    munmap(p, size);
}

static size_t idle_reserve;
void md_idle_reserve_add(size_t bytes) {
  __atomic_fetch_add(&idle_reserve, bytes, __ATOMIC_RELAXED);
}
void md_idle_reserve_sub(size_t bytes) {
  __atomic_fetch_sub(&idle_reserve, bytes, __ATOMIC_RELAXED);
}
size_t md_idle_reserve(void) {
  return __atomic_load_n(&idle_reserve, __ATOMIC_RELAXED);
}

int md_write_fully(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return n < 0 ? errno : EIO;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

void md_write_all(int fd, const char *buf, size_t len) {
  int saved = errno;
  md_write_fully(fd, buf, len);
  errno = saved;
}

int md_getpid(void) { return (int)md_sys0(SYS_getpid); }
int md_gettid(void) { return (int)md_sys0(SYS_gettid); }

void md_kept_open(struct md_kept_fd *k, const char *path, int flags) {
  if (k->fd >= 0)
    md_sys1(SYS_close, k->fd);
  k->fd = (int)md_sys4(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC, 0);
  k->pid = (int)md_sys0(SYS_getpid);
  struct stat st;
  if (k->fd >= 0 && md_sys2(SYS_fstat, k->fd, &st) == 0) {
    k->dev = st.st_dev;
    k->ino = st.st_ino;
  } else if (k->fd >= 0) {
    md_sys1(SYS_close, k->fd);
    k->fd = -1;
  }
}

bool md_kept_valid(const struct md_kept_fd *k) {
  struct stat st;
  return k->fd >= 0 && k->pid == (int)md_sys0(SYS_getpid) &&
         md_sys2(SYS_fstat, k->fd, &st) == 0 && st.st_dev == k->dev &&
         st.st_ino == k->ino;
}

/* getenv() does not allocate either, but environ may not be set yet when the
 * first allocation comes from an early constructor; scan it ourselves. */
const char *md_getenv(const char *name) {
  size_t len = strlen(name);
  if (!environ)
    return NULL;
  for (char **e = environ; *e; e++)
    if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
      return *e + len + 1;
  return NULL;
}

/* The kernel sets AT_SECURE when the program runs with privileges its
 * caller does not have (setuid, setgid, file capabilities). */
bool md_secure(void) { return getauxval(AT_SECURE) != 0; }

/* argv[0] is whatever the caller chose, newlines and escape sequences
 * included: it is printed escaped, copied once at start-up. */
static char progname[256];

void md_platform_init(void) {
  const char *name = program_invocation_short_name;
  if (!name || !*name)
    name = "<unknown>";
  md_escape(progname, sizeof(progname), name, strlen(name));
}

const char *md_progname(void) { return progname[0] ? progname : "<unknown>"; }

MD_COLD void md_die(const char *why) {
  md_write_all(2, "mdebug: fatal: ", 15);
  md_write_all(2, why, strlen(why));
  md_write_all(2, "\n", 1);
  _exit(127);
}
