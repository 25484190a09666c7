/* stop_linux.c - stopping every other thread of the process while a leak
 * scan runs, and giving roots_linux.c each stopped thread's stack pointer,
 * thread pointer and registers: the listing of the threads, their slots,
 * the ptrace stop and md_world_stop, which chooses between it and the
 * signal fallback (stop_signal.c; what both share is in stop_linux.h).
 *
 * The threads are listed from /proc/self/task (getdents64 on a directory fd
 * opened at start-up and again in a forked child, so a program that later
 * lowers RLIMIT_NOFILE can still be checked), and stopped one of two ways:
 *
 *  ptrace (the default, as LeakSanitizer does): a tracer task, cloned with
 *    CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_UNTRACED on a stack of its
 *    own and with every signal blocked, seizes each thread
 *    (PTRACE_SEIZE + PTRACE_INTERRUPT: no signal is sent, so a thread's
 *    signal mask, a sigwait on every signal, or a nearly full stack do not
 *    matter), reads its registers (PTRACE_GETREGSET), tells the caller, and
 *    waits. The caller runs the scan itself, then tells the tracer, which
 *    detaches (handing back a signal that arrived meanwhile) and exits. A
 *    thread interrupted in a system call resumes it as after any ptrace
 *    stop (restarted; sigtimedwait and the like may return EINTR). The
 *    tracer shares the caller's TLS, so it calls nothing from libc: raw
 *    system calls only (arch_x86_64.h). The process is made dumpable for
 *    the stop if it was not, and with Yama's ptrace_scope 1 the tracer is
 *    named with PR_SET_PTRACER (replacing any tracer the program named).
 *
 *  a signal (the fallback, where ptrace is refused: seccomp, ptrace_scope
 *    3, no permission): each thread is sent STOP_SIGNAL and parks in its
 *    handler (stop_signal.c).
 *
 * A thread already traced by another process (a debugger, strace) cannot
 * be seized: that stop uses the fallback.
 *
 * Listing is repeated until it finds no new thread (a stopped thread cannot
 * create more). A thread that exits, or is a zombie (a main thread after
 * pthread_exit), is skipped. A thread that does not stop (uninterruptible
 * sleep, a vfork parent; in the fallback, one that keeps STOP_SIGNAL
 * blocked) makes the stop fail once STOP_TIMEOUT_S pass with no thread
 * stopping: everyone is resumed and md_world_stop_failure says why.
 *
 * Built with -fno-builtin (CMakeLists.txt), so the compiler never turns a
 * loop into a call of memcpy or memset: the tracer calls nothing from
 * libc. Never allocates through malloc: memory comes from
 * mmap and is kept from one stop to the next. Between stopping and
 * resuming, nothing here takes a user-space lock (no stdio, dladdr,
 * malloc, md_log).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <elf.h>

#include "base.h"
#include "lock.h"
#include "platform.h"
#include "print.h"
#include "roots.h"
#include "scan_contract.h"
#include "stop.h"
#include "stop_linux.h"




/* ---- state shared with the signal fallback (stop_linux.h) --------------- */
struct slot *md_stop_chunks[MAX_CHUNKS];
int *md_stop_slot_tids; /* tid of slot i, contiguous for fast search */
int md_stop_slot_count; /* slots valid for the handler's lookup; 0 between stops
                         */
int md_stop_parked_count; /* handlers that parked in this stop (futex word) */

/* ---- the controller's state, under world_lock ---------------------------- */
static int world_lock;      /* owner's pid; 0 when free */
static int world_owner_tid; /* while fn runs */
static bool world_stopped;
static __thread int in_world_stop __attribute__((tls_model("initial-exec")));
static struct slot *self_slot; /* the calling thread, mmap'ed */
static size_t self_nregs;
int md_stop_slots_used;    /* slots handed out in this stop */
int md_stop_settled_count; /* slots GONE or MASKED */
static char task_buf[4096];
static char failure[256]; /* why the last stop failed */

/* /proc/PID/task, opened ahead of time, checked before use. */
static struct md_kept_fd task = {.fd = -1};

/* ptrace: -1 refused (the fallback from then on), else not known to fail. */
static int ptrace_refused;
static const char *ptrace_why;
static long ptrace_err;
static int yama_scope; /* /proc/sys/kernel/yama/ptrace_scope, 0 if absent */

/* A spin lock holding its owner's pid, so a child forked while the parent
 * held it (the holder does not exist in the child) takes it over instead of
 * waiting forever. Waiters spin with signals open, so they can be stopped. */
void md_pid_lock(int *lock) {
  int me = md_getpid();
  for (int spins = 0;;) {
    int owner = __atomic_load_n(lock, __ATOMIC_RELAXED);
    if (owner != me &&
        __atomic_compare_exchange_n(lock, &owner, me, false, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED))
      return;
    if (++spins < 64)
      md_cpu_relax();
    else
      sched_yield();
  }
}
void md_pid_unlock(int *lock) { __atomic_store_n(lock, 0, __ATOMIC_RELEASE); }

static void pause_ms(long ms) {
  struct timespec ts = {0, ms * 1000000};
  md_sys2(SYS_nanosleep, &ts, NULL);
}

/* ---- small text helpers that call nothing (the tracer uses them) -------- */

static size_t put_int(char *p, long v) {
  char tmp[24];
  size_t n = 0, k = 0;
  do
    tmp[n++] = (char)('0' + v % 10);
  while ((v /= 10) > 0);
  while (n)
    p[k++] = tmp[--n];
  return k;
}

static bool starts(const char *s, const char *prefix) {
  while (*prefix)
    if (*s++ != *prefix++)
      return false;
  return true;
}

/* The value after "\nNAME" in a /proc status text, or NULL. */
const char *md_stop_field(const char *text, const char *name) {
  for (const char *p = text; *p; p++)
    if ((p == text || p[-1] == '\n') && starts(p, name)) {
      for (const char *n = name; *n; n++)
        p++;
      while (*p == ' ' || *p == '\t')
        p++;
      return p;
    }
  return NULL;
}

uintptr_t md_stop_parse_num(const char **p, int base) {
  uintptr_t v = 0;
  for (;; (*p)++) {
    char c = **p;
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                   : -1;
    if (d < 0 || d >= base)
      return v;
    v = v * (uintptr_t)base + (uintptr_t)d;
  }
}

/* ---- the task directory --------------------------------------------------- */

static void open_task_dir(void) {
  md_kept_open(&task, "/proc/self/task", O_RDONLY | O_DIRECTORY);
}

/* The kept directory fd if still ours (a program may close it, or put
 * another file at its number), else a new one; <0 on failure. */
static int task_dir(void) {
  if (!md_kept_valid(&task))
    open_task_dir();
  return task.fd;
}

/* Reads /proc/self/task/TID/NAME (through the kept directory) into buf,
 * NUL-terminated; the length, or -errno. */
long md_stop_read_task_file(int tid, const char *name, char *buf, size_t size) {
  char path[64];
  size_t n = put_int(path, tid);
  path[n++] = '/';
  for (const char *s = name; *s && n + 1 < sizeof(path);)
    path[n++] = *s++;
  path[n] = '\0';
  int fd = (int)md_sys4(SYS_openat, task.fd, path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return fd;
  size_t got = 0;
  while (got + 1 < size) {
    long r = md_sys3(SYS_read, fd, buf + got, size - 1 - got);
    if (r == -EINTR)
      continue;
    if (r <= 0)
      break;
    got += (size_t)r;
  }
  md_sys1(SYS_close, fd);
  buf[got] = '\0';
  return (long)got;
}

struct linux_dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* Calls fn for every thread listed but `self` and those that have a slot
 * already. Returns how many fn accepted (fn: >0 asked, 0 skipped, <0 stop
 * with that result), or -errno if the directory cannot be read. */
int md_stop_for_new_threads(int self, int (*fn)(int tid, void *arg),
                            void *arg) {
  int fd = task.fd;
  if (fd < 0)
    return -EBADF;
  long r = md_sys3(SYS_lseek, fd, 0, SEEK_SET);
  if (r < 0)
    return (int)r;
  int asked = 0;
  for (;;) {
    long n = md_sys3(SYS_getdents64, fd, task_buf, sizeof(task_buf));
    if (n == -EINTR)
      continue;
    if (n < 0)
      return (int)n;
    if (n == 0)
      break;
    for (long off = 0; off < n;) {
      struct linux_dirent64 *d = (struct linux_dirent64 *)(task_buf + off);
      off += d->d_reclen;
      const char *c = d->d_name;
      int tid = (int)md_stop_parse_num(&c, 10);
      if (*c || tid <= 0 || tid == self)
        continue;
      bool known = false;
      for (int i = 0; i < md_stop_slots_used && !known; i++)
        known = md_stop_slot_tids[i] == tid;
      if (known)
        continue;
      int got = fn(tid, arg);
      if (got < 0)
        return got;
      asked += got;
    }
  }
  return asked;
}

/* A slot for tid (state WAITING until set), or NULL. mmap is called raw:
 * the tracer may be the caller. */
struct slot *md_stop_new_slot(int tid, int state) {
  if (md_stop_slots_used == MAX_THREADS)
    return NULL;
  int i = md_stop_slots_used;
  if (!md_stop_chunks[i / SLOTS_PER_CHUNK]) {
    long p =
        md_sys6(SYS_mmap, 0, sizeof(struct slot) * SLOTS_PER_CHUNK,
                PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p < 0 && p > -4096)
      return NULL;
    md_stop_chunks[i / SLOTS_PER_CHUNK] = (struct slot *)p;
  }
  struct slot *s = slot_at(i);
  __atomic_store_n(&s->state, SLOT_FREE, __ATOMIC_RELAXED);
  s->tid = tid;
  s->traced = 0;
  s->stop_sig = 0;
  s->sp = s->tp = 0;
  __atomic_store_n(&md_stop_slot_tids[i], tid, __ATOMIC_RELAXED);
  __atomic_store_n(&s->state, state, __ATOMIC_RELEASE);
  md_stop_slots_used++;
  __atomic_store_n(&md_stop_slot_count, md_stop_slots_used, __ATOMIC_RELEASE);
  return s;
}

/* ---- ptrace: the tracer task --------------------------------------------- */

enum { CTL_WAIT, CTL_GO, CTL_STOPPED, CTL_FAILED, CTL_RESUME, CTL_DONE };
/* RES_TRACED: a thread is traced by another process (a debugger, strace):
 * this stop uses the signal fallback, later ones try ptrace again. */
enum { RES_OK, RES_FAILED, RES_REFUSED, RES_TRACED };

static struct {
  int phase; /* futex word */
  int pid, caller;
  int result;  /* R_* when FAILED */
  int bad_tid; /* the thread it is about */
  long err;    /* -errno, when it helps */
  char bad_state;
  const char *why;
} ctl;

/* A thread ptrace could not seize: gone (a zombie), traced by another
 * process, or ptrace refused. */
static int classify_refusal(int tid, long err) {
  char buf[2048];
  long n = md_stop_read_task_file(tid, "status", buf, sizeof(buf));
  if (n == -ENOENT || n == -ESRCH)
    return SLOT_GONE;
  if (n > 0) {
    const char *st = md_stop_field(buf, "State:");
    const char *tp = md_stop_field(buf, "TracerPid:");
    if (st && (*st == 'Z' || *st == 'X'))
      return SLOT_GONE;
    if (tp && md_stop_parse_num(&tp, 10) != 0) {
      ctl.why = "a thread is traced by another process";
      return -RES_TRACED;
    }
  } else if (tid == ctl.pid) {
    /* Unreadable (no descriptor left): a main thread that ptrace refuses
     * while the others are seized is a zombie after pthread_exit. */
    return SLOT_GONE;
  }
  ctl.err = err;
  ctl.why = "ptrace refused to attach";
  return -RES_REFUSED;
}

static int seize(int tid, void *arg) {
  (void)arg;
  struct slot *s = md_stop_new_slot(tid, SLOT_REQUESTED);
  if (!s) {
    ctl.why = "too many threads, or out of memory for their slots";
    return -RES_FAILED;
  }
  long r = md_sys4(SYS_ptrace, PTRACE_SEIZE, tid, 0, 0);
  if (r == -ESRCH) {
    s->state = SLOT_GONE;
    md_stop_settled_count++;
    return 0;
  }
  if (r < 0) {
    int to = classify_refusal(tid, r);
    ctl.bad_tid = tid;
    if (to < 0)
      return to;
    s->state = to;
    md_stop_settled_count++;
    return 0;
  }
  s->traced = 1;
  md_sys4(SYS_ptrace, PTRACE_INTERRUPT, tid, 0, 0); /* ESRCH: seen as exit */
  return 1;
}

static struct slot *traced_slot(int tid) {
  for (int i = 0; i < md_stop_slots_used; i++)
    if (md_stop_slot_tids[i] == tid && slot_at(i)->traced)
      return slot_at(i);
  return NULL;
}

/* Reaps stops until every seized thread stopped or exited; false when none
 * made progress until the deadline (which moves with progress). */
static bool wait_stops(long long *deadline) {
  for (;;) {
    int pending = 0;
    for (int i = 0; i < md_stop_slots_used; i++)
      pending += slot_at(i)->state == SLOT_REQUESTED;
    if (!pending)
      return true;
    int status = 0;
    long r = md_sys4(SYS_wait4, -1, &status, __WALL | WNOHANG, 0);
    if (r == -EINTR)
      continue;
    if (r == -ECHILD) { /* nothing left to wait for: all gone */
      for (int i = 0; i < md_stop_slots_used; i++)
        if (slot_at(i)->state == SLOT_REQUESTED) {
          slot_at(i)->state = SLOT_GONE;
          slot_at(i)->traced = 0;
        }
      return true;
    }
    if (r > 0) {
      struct slot *s = traced_slot((int)r);
      if (!s)
        continue;
      if (WIFSTOPPED(status)) {
        /* A signal-delivery stop (no event) holds a signal meant for the
         * thread: it is handed back when the thread is let go. */
        s->stop_sig = (status >> 16) == 0 ? WSTOPSIG(status) : 0;
        s->state = SLOT_PARKED;
      } else {
        s->state = SLOT_GONE;
        s->traced = 0;
      }
      *deadline = now_ns() + STOP_TIMEOUT_S * 1000000000ll;
      continue;
    }
    if (now_ns() > *deadline) {
      for (int i = 0; i < md_stop_slots_used; i++)
        if (slot_at(i)->state == SLOT_REQUESTED) {
          char buf[512];
          ctl.bad_tid = slot_at(i)->tid;
          ctl.bad_state = 0;
          if (md_stop_read_task_file(ctl.bad_tid, "stat", buf, sizeof(buf)) >
              0) {
            const char *p = buf, *paren = NULL;
            for (; *p; p++)
              if (*p == ')')
                paren = p;
            if (paren && paren[1] == ' ')
              ctl.bad_state = paren[2];
          }
          break;
        }
      ctl.why = "it did not stop";
      return false;
    }
    pause_ms(1);
  }
}

static void read_registers(struct slot *s) {
  struct iovec io = {s->regs, MD_ARCH_GREG_WORDS * sizeof(uintptr_t)};
  if (md_sys4(SYS_ptrace, PTRACE_GETREGSET, s->tid, NT_PRSTATUS, &io) != 0) {
    for (size_t i = 0; i < MD_ARCH_REG_WORDS; i++)
      ((volatile uintptr_t *)s->regs)[i] = 0;
    return; /* killed while stopped: its stack is still there */
  }
  s->sp = s->regs[MD_ARCH_SP_INDEX];
  s->tp = s->regs[MD_ARCH_TP_INDEX];
  unsigned char fp[MD_ARCH_FPREGS_SIZE] __attribute__((aligned(16)));
  io = (struct iovec){fp, sizeof(fp)};
  bool have =
      md_sys4(SYS_ptrace, PTRACE_GETREGSET, s->tid, NT_PRFPREG, &io) == 0;
  const uintptr_t *xmm = (const uintptr_t *)(fp + MD_ARCH_XMM_OFFSET);
  for (size_t k = 0; k < MD_ARCH_XMM_WORDS; k++)
    ((volatile uintptr_t *)s->regs)[MD_ARCH_GREG_WORDS + k] = have ? xmm[k] : 0;
}

static void detach_all(void) {
  for (int i = 0; i < md_stop_slots_used; i++) {
    struct slot *s = slot_at(i);
    if (s->traced && s->state == SLOT_PARKED)
      md_sys4(SYS_ptrace, PTRACE_DETACH, s->tid, 0, s->stop_sig);
    s->traced = 0;
  }
  /* Seized threads that never stopped are let go when the tracer exits. */
}

static int attach_all(void) {
  long long deadline = now_ns() + STOP_TIMEOUT_S * 1000000000ll;
  for (;;) {
    int asked = md_stop_for_new_threads(ctl.caller, seize, NULL);
    if (asked == -RES_FAILED || asked == -RES_REFUSED || asked == -RES_TRACED)
      return -asked;
    if (asked < 0) {
      ctl.err = asked;
      ctl.why = "cannot list the threads (/proc/self/task)";
      return RES_FAILED;
    }
    if (!wait_stops(&deadline))
      return RES_FAILED;
    if (asked == 0)
      return RES_OK;
  }
}

/* The tracer: its own task (not a thread of the process, which ptrace
 * requires), sharing memory, files and the caller's TLS; every signal
 * blocked. Calls nothing from libc. */
static int tracer_main(void *arg) {
  (void)arg;
  md_sys2(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL); /* the caller died: go */
  if (md_sys0(SYS_getppid) != ctl.pid)
    return 1;
  while (__atomic_load_n(&ctl.phase, __ATOMIC_ACQUIRE) == CTL_WAIT)
    futex(&ctl.phase, FUTEX_WAIT, CTL_WAIT, NULL);
  int result = attach_all();
  if (result == RES_OK) {
    for (int i = 0; i < md_stop_slots_used; i++)
      if (slot_at(i)->state == SLOT_PARKED)
        read_registers(slot_at(i));
    __atomic_store_n(&ctl.phase, CTL_STOPPED, __ATOMIC_RELEASE);
    futex(&ctl.phase, FUTEX_WAKE, 1, NULL);
    while (__atomic_load_n(&ctl.phase, __ATOMIC_ACQUIRE) != CTL_RESUME)
      futex(&ctl.phase, FUTEX_WAIT, CTL_STOPPED, NULL);
    detach_all();
    __atomic_store_n(&ctl.phase, CTL_DONE, __ATOMIC_RELEASE);
  } else {
    detach_all();
    ctl.result = result;
    __atomic_store_n(&ctl.phase, CTL_FAILED, __ATOMIC_RELEASE);
  }
  futex(&ctl.phase, FUTEX_WAKE, 1, NULL);
  return 0;
}

static int tracer_pid;
static char *tracer_stack;
static int was_dumpable;

/* Waits for the tracer task to end and reaps it. */
static void reap_tracer(void) {
  for (;;) {
    long r = md_sys4(SYS_wait4, tracer_pid, 0, __WALL, 0);
    if (r != -EINTR)
      break;
  }
  tracer_pid = 0;
  if (!was_dumpable)
    md_sys2(SYS_prctl, PR_SET_DUMPABLE, 0);
}

static int stop_ptrace(int self, const char **why) {
  if (!tracer_stack && !(tracer_stack = md_mmap(TRACER_STACK))) {
    *why = "out of memory for the tracer's stack (mmap failed)";
    return RES_FAILED;
  }
  memset(&ctl, 0, sizeof(ctl));
  ctl.pid = md_getpid();
  ctl.caller = self;
  /* A process that is not dumpable cannot be traced, not even by itself. */
  was_dumpable = (int)md_sys2(SYS_prctl, PR_GET_DUMPABLE, 0);
  if (!was_dumpable)
    md_sys2(SYS_prctl, PR_SET_DUMPABLE, 1);
  sigset_t all, old;
  sigfillset(&all);
  md_sys4(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old, sizeof(long));
  int pid = clone(tracer_main, tracer_stack + TRACER_STACK,
                  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_UNTRACED, NULL);
  int clone_errno = errno;
  md_sys4(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof(long));
  if (pid <= 0) {
    if (!was_dumpable)
      md_sys2(SYS_prctl, PR_SET_DUMPABLE, 0);
    ctl.err = -clone_errno;
    *why = "cannot create the tracer task";
    return RES_REFUSED;
  }
  tracer_pid = pid;
  if (yama_scope == 1) /* a descendant may trace us only when named */
    md_sys2(SYS_prctl, PR_SET_PTRACER, pid);
  __atomic_store_n(&ctl.phase, CTL_GO, __ATOMIC_RELEASE);
  futex(&ctl.phase, FUTEX_WAKE, 1, NULL);
  for (;;) {
    int phase = __atomic_load_n(&ctl.phase, __ATOMIC_ACQUIRE);
    if (phase == CTL_STOPPED)
      return RES_OK;
    if (phase == CTL_FAILED) {
      reap_tracer();
      *why = ctl.why;
      return ctl.result;
    }
    struct timespec ts = {0, 10000000};
    futex(&ctl.phase, FUTEX_WAIT, phase, &ts);
    if (md_sys4(SYS_wait4, tracer_pid, 0, __WALL | WNOHANG, 0) == tracer_pid) {
      tracer_pid = 0; /* gone: its tracees were let go */
      if (!was_dumpable)
        md_sys2(SYS_prctl, PR_SET_DUMPABLE, 0);
      if (__atomic_load_n(&ctl.phase, __ATOMIC_ACQUIRE) == CTL_FAILED) {
        *why = ctl.why; /* it said why before it went */
        return ctl.result;
      }
      *why = "the tracer task died"; /* a seccomp kill, say */
      return RES_REFUSED;
    }
  }
}

static void resume_ptrace(void) {
  __atomic_store_n(&ctl.phase, CTL_RESUME, __ATOMIC_RELEASE);
  futex(&ctl.phase, FUTEX_WAKE, 1, NULL);
  reap_tracer();
}

/* ---- start-up and fork (lifecycle.def's stop row) ------------------------- */

/* In a forked child: the parent's /proc/self/task lists the parent's
 * threads. */
void md_stop_atfork_child(void) {
  open_task_dir();
  md_roots_open_files();
}

/* The active copy's start-up: opens the /proc files a stop reads while
 * descriptors are surely available (before the program can lower
 * RLIMIT_NOFILE, and before any of the runtime's threads may stop the
 * world). */
void md_stop_start(void) {
  open_task_dir();
  md_roots_open_files();
  char buf[16];
  long fd = md_sys4(SYS_openat, AT_FDCWD, "/proc/sys/kernel/yama/ptrace_scope",
                    O_RDONLY | O_CLOEXEC, 0);
  if (fd >= 0) {
    long n = md_sys3(SYS_read, fd, buf, sizeof(buf) - 1);
    md_sys1(SYS_close, fd);
    if (n > 0) {
      buf[n] = '\0';
      const char *p = buf;
      yama_scope = (int)md_stop_parse_num(&p, 10);
    }
  }
  if (yama_scope >= 3) {
    ptrace_refused = -1;
    ptrace_why = "ptrace is disabled (Yama ptrace_scope 3)";
  }
}

/* ---- md_world_stop -------------------------------------------------------- */

static bool world_stop(void (*fn)(void *arg), void *arg,
                       const struct md_arch_entry *entry);

__attribute__((naked)) bool md_world_stop(void (*fn)(void *arg), void *arg) {
  MD_ARCH_ENTRY_ASM(world_stop);
}

MD_COLD static void set_failure(const char *why, int tid, char state, long err,
                                const char *method) {
  size_t n = md_format(failure, sizeof(failure),
                       "could not stop the other threads");
  if (tid)
    n += md_format(failure + n, sizeof(failure) - n, ": thread %d", tid);
  if (tid && state)
    n += md_format(failure + n, sizeof(failure) - n, " (state %c)", state);
  n += md_format(failure + n, sizeof(failure) - n, ": %s", why);
  if (err)
    n += md_format(failure + n, sizeof(failure) - n, " (errno %ld)", -err);
  if (method)
    md_format(failure + n, sizeof(failure) - n, "; %s", method);
}

static bool world_stop(void (*fn)(void *arg), void *arg,
                       const struct md_arch_entry *entry) {
  if (in_world_stop) { /* from a signal handler that interrupted a stop */
    md_format(failure, sizeof(failure),
              "threads are already being stopped by this thread");
    return false;
  }
  in_world_stop = 1;
  int saved_errno = errno;
  md_pid_lock(&world_lock);
  failure[0] = '\0';
  const char *why = NULL;
  int pid = md_getpid(), self = md_gettid();
  bool ok = true, prepared = false, by_ptrace = false, by_signal = false;
  if (!md_stop_slot_tids) {
    md_stop_slot_tids = md_mmap(sizeof(int) * MAX_THREADS);
    self_slot = md_mmap(sizeof(struct slot));
    if (!md_stop_slot_tids || !self_slot) {
      ok = false;
      why = "out of memory (mmap failed)";
    }
  }
  if (ok && task_dir() < 0) {
    ok = false;
    why = "cannot open /proc/self/task (no file descriptor left?)";
  }
  if (ok)
    ok = prepared = md_roots_prepare(&why);
  md_stop_slots_used = md_stop_settled_count = 0;
  __atomic_store_n(&md_stop_parked_count, 0, __ATOMIC_RELEASE);
  if (ok && !ptrace_refused) {
    int r = stop_ptrace(self, &why);
    if (r == RES_OK) {
      by_ptrace = true;
    } else if (r == RES_FAILED) {
      ok = false;
      set_failure(why, ctl.bad_tid, ctl.bad_state, ctl.err, NULL);
    } else { /* refused: signals from now on; traced: this time */
      if (r == RES_REFUSED)
        ptrace_refused = -1;
      ptrace_why = why;
      ptrace_err = r == RES_REFUSED ? ctl.err : 0;
      md_stop_slots_used = md_stop_settled_count = 0;
    }
  }
  if (ok && !by_ptrace) {
    by_signal = true;
    if (!md_stop_signals(pid, self)) {
      ok = false;
      char method[128];
      size_t n = md_format(method, sizeof(method), "ptrace not used: %s",
                           ptrace_why);
      if (ptrace_err)
        md_format(method + n, sizeof(method) - n, " (errno %ld)", -ptrace_err);
      set_failure(md_stop_fallback_why ? md_stop_fallback_why
                                       : "it did not stop in time",
                  md_stop_fallback_tid, 0, 0, method);
    }
  }
  if (ok && !md_roots_read_maps(&why))
    ok = false;
  if (ok) {
    uintptr_t *r = self_slot->regs;
    r[0] = entry->rbx;
    r[1] = entry->rbp;
    r[2] = entry->r12;
    r[3] = entry->r13;
    r[4] = entry->r14;
    r[5] = entry->r15;
    self_nregs = MD_ARCH_ENTRY_WORDS;
    self_slot->sp = entry->sp;
    self_slot->tp = (uintptr_t)__builtin_thread_pointer();
    self_slot->tid = self;
    world_owner_tid = self;
    world_stopped = true;
    fn(arg);
    world_stopped = false;
    world_owner_tid = 0;
    memset(self_slot, 0, sizeof(*self_slot));
  }
  if (by_ptrace)
    resume_ptrace();
  if (by_signal)
    md_stop_signals_resume();
  if (prepared)
    md_roots_finish();
  if (!ok && why && !failure[0])
    set_failure(why, 0, 0, 0, NULL);
  md_pid_unlock(&world_lock);
  in_world_stop = 0;
  errno = saved_errno;
  return ok;
}

MD_COLD const char *md_world_stop_failure(void) { return failure; }

bool md_world_is_stopped(void) {
  return world_stopped && world_owner_tid == md_gettid();
}

bool md_world_thread(size_t i, struct md_thread *t) {
  if (!md_world_is_stopped())
    return false;
  if (i == 0) { /* the caller: it made a call, no red zone in use */
    *t = (struct md_thread){self_slot->tid, self_slot->sp, self_slot->tp, 0,
                            self_nregs, self_slot->regs};
    return true;
  }
  for (int k = 0; k < md_stop_slots_used; k++) {
    const struct slot *s = slot_at(k);
    int state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
    if (state != SLOT_PARKED && state != SLOT_MASKED)
      continue;
    if (--i == 0) {
      bool regs = state == SLOT_PARKED && s->sp;
      *t = (struct md_thread){s->tid, s->sp, s->tp, MD_ARCH_RED_ZONE,
                              regs ? MD_ARCH_REG_WORDS : 0, s->regs};
      return true;
    }
  }
  return false;
}
