/* stop_linux.h - what the two halves of the stop share: stop_linux.c (the
 * threads' listing, their slots, the ptrace stop and md_world_stop) and
 * stop_signal.c (the signal fallback). Private to those two files.
 *
 * Everything here is used by the tracer task or the stop signal handler
 * too: raw system calls only, nothing from libc (both files are built with
 * -fno-builtin), no allocation.
 */
#ifndef MDEBUG_STOP_LINUX_H
#define MDEBUG_STOP_LINUX_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

#include "base.h"
#include "platform_linux.h"

/* SIGRTMAX-13 (51 with glibc). malloc debug's triggers use SIGRTMAX-19 ..
 * SIGRTMAX-15 (see DESIGN.md); glibc reserves the first real-time signals
 * (SIGCANCEL, SIGSETXID), which SIGRTMIN already skips. */
#define STOP_SIGNAL (SIGRTMAX - 13)
#define STOP_TIMEOUT_S 5
#define FIRST_CHECK_NS 10000000ll /* unstopped threads are looked at after */
#define MAX_CHECK_NS 160000000ll  /* ... then at doubling intervals up to */
#define SLOTS_PER_CHUNK 1024
#define MAX_CHUNKS 256 /* so at most 262144 threads */
#define MAX_THREADS (SLOTS_PER_CHUNK * MAX_CHUNKS)
#define TRACER_STACK (256 * 1024)

/* One thread's state in a stop. In the signal fallback a slot changes
 * hands by CAS on state: REQUESTED (the controller asked) -> SAVING ->
 * PARKED (the thread's handler), or REQUESTED -> GONE / ABANDONED (the
 * controller); WAITING -> MASKED or REQUESTED (the controller). With ptrace
 * only the tracer writes slots, until it publishes them. */
enum {
  SLOT_FREE,
  SLOT_WAITING, /* fallback: blocks STOP_SIGNAL, not sent it yet */
  SLOT_REQUESTED,
  SLOT_SAVING,
  SLOT_PARKED,
  SLOT_GONE,
  SLOT_MASKED,
  SLOT_ABANDONED
};
struct slot {
  int state;
  int tid;
  int traced;   /* ptrace: seized */
  int stop_sig; /* ptrace: a signal that stopped it, handed back;
                   fallback: why it is WAITING (WAIT_*) */
  uintptr_t sp, tp;
  uintptr_t regs[MD_ARCH_REG_WORDS];
} __attribute__((aligned(64)));

/* ---- slots (stop_linux.c): read by the handler, written by the controller */
extern struct slot *md_stop_chunks[MAX_CHUNKS] MD_HIDDEN;
extern int *md_stop_slot_tids MD_HIDDEN; /* tid of slot i */
extern int md_stop_slot_count MD_HIDDEN; /* valid for the handler's lookup */
extern int md_stop_parked_count MD_HIDDEN; /* handlers parked (futex word) */
/* Under the world lock: slots handed out in this stop; slots GONE or MASKED. */
extern int md_stop_slots_used MD_HIDDEN;
extern int md_stop_settled_count MD_HIDDEN;

static inline struct slot *slot_at(int i) {
  return &md_stop_chunks[i / SLOTS_PER_CHUNK][i % SLOTS_PER_CHUNK];
}

static inline long futex(int *word, int op, int val,
                         const struct timespec *timeout) {
  return md_sys6(SYS_futex, (long)word, op, val, (long)timeout, 0, 0);
}

static inline long long now_ns(void) {
  struct timespec ts;
  md_sys2(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* ---- stop_linux.c: /proc text and the task directory, calling nothing ---- */
/* The value after "\nNAME" in a /proc status text, or NULL. */
const char *md_stop_field(const char *text, const char *name) MD_HIDDEN;
uintptr_t md_stop_parse_num(const char **p, int base) MD_HIDDEN;
/* /proc/self/task/TID/NAME into buf, NUL-terminated; the length or -errno. */
long md_stop_read_task_file(int tid, const char *name, char *buf,
                            size_t size) MD_HIDDEN;
/* fn for every listed thread but self and those with a slot; how many fn
 * accepted, or <0. */
int md_stop_for_new_threads(int self, int (*fn)(int tid, void *arg),
                            void *arg) MD_HIDDEN;
/* A slot for tid in the given state, or NULL. */
struct slot *md_stop_new_slot(int tid, int state) MD_HIDDEN;

/* ---- stop_signal.c: the fallback ----------------------------------------- */
/* Stops every thread but self with STOP_SIGNAL; false with
 * md_stop_fallback_why (NULL: it did not stop in time) and _tid set. */
bool md_stop_signals(int pid, int self) MD_HIDDEN;
void md_stop_signals_resume(void) MD_HIDDEN;
extern const char *md_stop_fallback_why MD_HIDDEN;
extern int md_stop_fallback_tid MD_HIDDEN;

#endif
