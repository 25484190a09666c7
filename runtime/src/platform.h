/* platform.h - what the rest of the runtime needs from the system, never
 * through malloc: memory, writes, ids, the environment, kept /proc files
 * (platform_linux.c). What the rest of the runtime may call; nothing declared
 * here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_PLATFORM_H
#define MDEBUG_INTERNAL_PLATFORM_H

#include "base.h"

void *md_mmap(size_t size) MD_HIDDEN;  /* zeroed, NULL on failure */
void md_munmap(void *p, size_t size) MD_HIDDEN;
/* Address space the runtime holds inaccessible and unused for later (the
 * leak check's reserve): whoever takes or gives back such a reservation
 * says so here; vm_threshold leaves it out of the virtual size. */
void md_idle_reserve_add(size_t bytes) MD_HIDDEN;
void md_idle_reserve_sub(size_t bytes) MD_HIDDEN;
size_t md_idle_reserve(void) MD_HIDDEN;
/* Writes all of buf to fd (again on EINTR); 0, or the errno that stopped
 * it. md_write_all: the same, errors ignored and errno kept. */
int md_write_fully(int fd, const char *buf, size_t len) MD_HIDDEN;
void md_write_all(int fd, const char *buf, size_t len) MD_HIDDEN;
int md_getpid(void) MD_HIDDEN;
int md_gettid(void) MD_HIDDEN;
const char *md_getenv(const char *name) MD_HIDDEN;
/* At start-up, before the options: computes md_progname(). */
void md_platform_init(void) MD_HIDDEN;
/* argv[0]'s last component, escaped (md_escape): safe to print as is. */
const char *md_progname(void) MD_HIDDEN;
/* True in a setuid/setgid (AT_SECURE) process: MDEBUG_OPTIONS is ignored
 * and mdebug neither writes a file nor reads one an option names. */
bool md_secure(void) MD_HIDDEN;
void md_die(const char *why) __attribute__((noreturn)) MD_HIDDEN;
/* A /proc file or directory kept open ahead of time (the leak check opens
 * none while threads are stopped). The program may close it, or put another
 * file at its number, and a forked child must not use its parent's; so each
 * use checks it is still the same file of this process. Raw system calls
 * only: usable in the leak check's tracer task and in signal handlers. */
struct md_kept_fd {
  int fd; /* -1: none */
  int pid;
  dev_t dev;
  ino_t ino;
};
/* (Re)opens path (openat flags) into k; k->fd is -1 on failure. */
void md_kept_open(struct md_kept_fd *k, const char *path, int flags) MD_HIDDEN;
/* True if k->fd is still the file md_kept_open opened, in this process. */
bool md_kept_valid(const struct md_kept_fd *k) MD_HIDDEN;

#endif
