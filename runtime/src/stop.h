/* stop.h - stopping every other thread for a leak scan, and the threads
 * stopped (stop_linux.c). What the rest of the runtime may call; nothing
 * declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_STOP_H
#define MDEBUG_INTERNAL_STOP_H

#include "base.h"

/* Stops every other thread of the process, calls fn(arg) while they are
 * stopped, then resumes them all. The caller must hold no lock a thread
 * could be waiting for in a way that keeps it from stopping; fn must not
 * take any lock a stopped thread might hold (no dladdr, no stdio, no
 * glibc malloc) and must not allocate. Returns false (fn not called) if
 * the threads could not be stopped (md_world_stop_failure says why). */
bool md_world_stop(void (*fn)(void *arg), void *arg) MD_HIDDEN;
/* Start-up (lifecycle.def): the /proc files a stop reads, and whether
 * ptrace may be used; in a forked child, the child's files. */
void md_stop_start(void) MD_HIDDEN;
void md_stop_atfork_child(void) MD_HIDDEN;
/* Why the last md_world_stop failed: one line, no newline. */
const char *md_world_stop_failure(void) MD_HIDDEN;
/* A stopped thread, as the roots see it. */
struct md_thread {
  int tid;
  uintptr_t sp, tp;      /* tp 0 when unknown */
  size_t red_zone;       /* bytes below sp that may be in use */
  size_t nregs;          /* words of regs (0: none known) */
  const uintptr_t *regs; /* registers that may hold pointers */
};
/* Only inside md_world_stop's fn, on its thread. */
bool md_world_is_stopped(void) MD_HIDDEN;
/* Only inside fn: the i-th thread (0: the caller, whose registers are the
 * callee-saved ones at its call of md_world_stop); false past the last. */
bool md_world_thread(size_t i, struct md_thread *t) MD_HIDDEN;
/* A spin lock holding its owner's pid (a forked child takes over a lock its
 * parent's thread held); waiters spin with signals open. */
void md_pid_lock(int *lock) MD_HIDDEN;
void md_pid_unlock(int *lock) MD_HIDDEN;

#endif
