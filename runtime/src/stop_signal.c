/* stop_signal.c - the leak check's stop by a signal, the fallback of
 * stop_linux.c's ptrace stop where ptrace is refused (seccomp, Yama
 * ptrace_scope 3, no permission) or the thread is traced already; called
 * by md_world_stop through stop_linux.h.
 *
 * Each thread is sent STOP_SIGNAL with rt_tgsigqueueinfo carrying a
 * cookie; the handler (raw system calls, no PLT call: it may run on a
 * nearly full stack) copies the thread's registers into its slot,
 * publishes "parked" and waits on a futex. The program's signals stay its
 * own: a thread that blocks STOP_SIGNAL is never sent it (it might take it
 * in sigwait) but waited for; a thread asleep inside glibc with every
 * signal blocked (a thread ending, waiting for a lock a stopped thread
 * holds) counts as stopped with the stack pointer /proc gives; the
 * program's own STOP_SIGNAL goes to its handler, and a late copy of ours
 * is swallowed, never passed on. A thread that keeps STOP_SIGNAL blocked
 * makes the stop fail once STOP_TIMEOUT_S pass with no thread stopping.
 *
 * Built with -fno-builtin (CMakeLists.txt): the handler calls nothing from
 * libc. Never allocates; between stopping and resuming, takes no
 * user-space lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "platform.h"
#include "stop_linux.h"

/* Cold code (the leak check's fallback where ptrace is refused): base.h. */
#pragma clang section text = "mdebug_cold"

/* ---- the fallback's own state, shared with its handler ------------------ */
static int resume_word;  /* bumped to resume (futex word) */
static int sent_pid;     /* the fallback's signals carry this pid ... */
static const char cookie; /* ... and this address */
static struct sigaction
    prev_action; /* the program's, while ours is installed */
static bool handler_installed;
/* Set once a thread was given up on with our signal pending: from then on
 * the handler stays, or that signal's default action would end the process
 * whenever the thread unblocks it. */
static bool handler_sticky;

/* ---- the signal fallback: the handler ------------------------------------ */

static void forward(int sig, siginfo_t *info, void *uc) {
  if (prev_action.sa_flags & SA_SIGINFO) {
    if (prev_action.sa_sigaction)
      prev_action.sa_sigaction(sig, info, uc);
  } else if (prev_action.sa_handler != SIG_DFL &&
             prev_action.sa_handler != SIG_IGN) {
    prev_action.sa_handler(sig);
  }
}

/* Runs with every signal blocked, maybe on a nearly full stack: raw system
 * calls (errno untouched), no call through the PLT, a small frame. */
static void stop_handler(int sig, siginfo_t *info,
                                                     void *ucv) {
  if (!info || info->si_code != SI_QUEUE || info->si_pid != sent_pid ||
      info->si_value.sival_ptr != (void *)&cookie) {
    forward(sig, info, ucv); /* the program's own use of the signal */
    return;
  }
  int tid = (int)md_sys0(SYS_gettid);
  int n = __atomic_load_n(&md_stop_slot_count, __ATOMIC_ACQUIRE);
  struct slot *s = NULL;
  for (int i = 0; i < n; i++) {
    if (__atomic_load_n(&md_stop_slot_tids[i], __ATOMIC_RELAXED) != tid)
      continue;
    struct slot *c = slot_at(i);
    int want = SLOT_REQUESTED;
    if (!__atomic_compare_exchange_n(&c->state, &want, SLOT_SAVING, false,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      break;
    if (__atomic_load_n(&c->tid, __ATOMIC_RELAXED) == tid) {
      s = c;
      break;
    }
    /* The slot was handed to another thread under our feet: give it back. */
    __atomic_store_n(&c->state, SLOT_REQUESTED, __ATOMIC_RELEASE);
  }
  if (!s)
    return; /* a late copy of ours (a stop that gave up): swallowed */
  /* Read only now that the slot is ours: the controller bumps resume_word
   * after every slot of its stop is PARKED or given up, and this slot was
   * handed out after the previous stop's bump. */
  int gen = __atomic_load_n(&resume_word, __ATOMIC_ACQUIRE);
  s->sp = md_arch_regs_from_context(s->regs, ucv);
  s->tp = (uintptr_t)__builtin_thread_pointer();
  __atomic_store_n(&s->state, SLOT_PARKED, __ATOMIC_RELEASE);
  /* From here on the slot is the controller's; it may be reused. The count
   * comes last: the controller waits for it before resuming anyone, so no
   * late increment can fall into the next stop. */
  __atomic_add_fetch(&md_stop_parked_count, 1, __ATOMIC_RELEASE);
  futex(&md_stop_parked_count, FUTEX_WAKE_PRIVATE, 1, NULL);
  while (__atomic_load_n(&resume_word, __ATOMIC_ACQUIRE) == gen)
    futex(&resume_word, FUTEX_WAIT_PRIVATE, gen, NULL);
}

/* ---- the signal fallback: the controller --------------------------------- */

/* The thread's blocked signals (bit sig-1) and state letter; false if its
 * status cannot be read. */
static bool thread_status(int tid, uint64_t *blocked, char *state) {
  char buf[2048];
  if (md_stop_read_task_file(tid, "status", buf, sizeof(buf)) <= 0)
    return false;
  const char *st = md_stop_field(buf, "State:"),
             *p = md_stop_field(buf, "SigBlk:");
  if (!st || !p)
    return false;
  *state = *st;
  *blocked = md_stop_parse_num(&p, 16);
  return true;
}

/* A thread asleep inside glibc with every signal blocked, SIGCANCEL too
 * (which glibc's pthread_sigmask never lets a program block): a thread on
 * its way out after its last user code ran (it blocks all signals, then,
 * if detached, takes the stack cache lock a stopped thread may hold), or a
 * new one not yet running user code. Asleep while everyone else is stopped
 * it cannot run. Returns its stack pointer (from /proc/self/task/TID/
 * syscall), or 0 if it is not such a thread. */
static uintptr_t asleep_masked_in_libc(int tid, uint64_t blocked, char state) {
  int sigcancel = __SIGRTMIN; /* glibc's SIGCANCEL, the kernel's first */
  if (state != 'S' || !((blocked >> (sigcancel - 1)) & 1))
    return 0;
  char buf[512];
  if (md_stop_read_task_file(tid, "syscall", buf, sizeof(buf)) <= 0)
    return 0;
  /* "NR ARG1 .. ARG6 SP PC", or "-1 SP PC", or "running". */
  const char *words[9];
  int n = 0;
  for (const char *p = buf; *p && n < 9;) {
    while (*p == ' ')
      p++;
    if (!*p || *p == '\n')
      break;
    words[n++] = p;
    while (*p && *p != ' ' && *p != '\n')
      p++;
  }
  if (n < 3 || words[n - 2][0] != '0' || words[n - 2][1] != 'x')
    return 0;
  const char *sp = words[n - 2] + 2;
  return md_stop_parse_num(&sp, 16);
}

/* Whether the thread sleeps in sigwait / sigwaitinfo / sigtimedwait on a
 * set holding STOP_SIGNAL: the kernel unblocks the awaited signals for the
 * call (its SigBlk does not show them), and would hand ours to the
 * program. The set is read from our own memory with process_vm_readv, which
 * fails cleanly if the pointer is stale. */
static bool waits_for_stop_signal(int tid) {
  char buf[512];
  if (md_stop_read_task_file(tid, "syscall", buf, sizeof(buf)) <= 0)
    return false;
  const char *p = buf;
  if (*p < '0' || *p > '9' || md_stop_parse_num(&p, 10) != SYS_rt_sigtimedwait)
    return false;
  while (*p == ' ')
    p++;
  if (p[0] != '0' || p[1] != 'x')
    return false;
  p += 2;
  uintptr_t set_addr = md_stop_parse_num(&p, 16);
  uint64_t set = 0;
  struct iovec local = {&set, sizeof(set)}, remote = {(void *)set_addr, 8};
  if (md_sys6(SYS_process_vm_readv, md_getpid(), (long)&local, 1,
              (long)&remote, 1, 0) != 8)
    return true; /* cannot tell: do not risk it */
  return (set >> (STOP_SIGNAL - 1)) & 1;
}

static bool take_back(struct slot *s, int from, int to) {
  return __atomic_compare_exchange_n(&s->state, &from, to, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

const char *md_stop_fallback_why;
int md_stop_fallback_tid;
enum { WAIT_BLOCKS = 1, WAIT_SIGWAIT = 2 }; /* why a slot is WAITING */

/* Sends the stop signal to a WAITING thread that does not block it; a
 * thread that does is left WAITING (or settled, if asleep in glibc with
 * everything masked). false (md_stop_fallback_why set) if the thread cannot be
 * looked at. */
static bool ask(struct slot *s, int pid) {
  uint64_t blocked;
  char state;
  if (!thread_status(s->tid, &blocked, &state)) {
    if (md_sys3(SYS_tgkill, pid, s->tid, 0) == -ESRCH) {
      s->state = SLOT_GONE;
      md_stop_settled_count++;
      return true;
    }
    md_stop_fallback_tid = s->tid;
    md_stop_fallback_why = "cannot read its /proc status";
    return false;
  }
  if (state == 'Z' || state == 'X') {
    s->state = SLOT_GONE;
    md_stop_settled_count++;
    return true;
  }
  if ((blocked >> (STOP_SIGNAL - 1)) & 1) {
    uintptr_t sp = asleep_masked_in_libc(s->tid, blocked, state);
    if (sp) {
      s->sp = sp;
      s->tp = 0;
      s->state = SLOT_MASKED;
      md_stop_settled_count++;
    }
    s->stop_sig = WAIT_BLOCKS;
    return true; /* never sent to a thread that blocks it */
  }
  if (state == 'S' && waits_for_stop_signal(s->tid)) {
    s->stop_sig = WAIT_SIGWAIT;
    return true; /* sigwait would take it */
  }
  __atomic_store_n(&s->state, SLOT_REQUESTED, __ATOMIC_RELEASE);
  siginfo_t info;
  memset(&info, 0, sizeof(info));
  info.si_signo = STOP_SIGNAL;
  info.si_code = SI_QUEUE;
  info.si_pid = sent_pid;
  info.si_uid = (uid_t)md_sys0(SYS_getuid);
  info.si_value.sival_ptr = (void *)&cookie;
  long r = md_sys4(SYS_rt_tgsigqueueinfo, pid, s->tid, STOP_SIGNAL, &info);
  if (r == 0)
    return true;
  if (r == -ESRCH && take_back(s, SLOT_REQUESTED, SLOT_GONE))
    md_stop_settled_count++;
  else if (r == -EAGAIN) /* the real-time signal queue is full: later */
    take_back(s, SLOT_REQUESTED, SLOT_WAITING);
  return true;
}

static int add_waiting(int tid, void *arg) {
  (void)arg;
  if (!md_stop_new_slot(tid, SLOT_WAITING)) {
    md_stop_fallback_why = "too many threads, or out of memory for their slots";
    return -1;
  }
  return 1;
}

/* Settles what can be settled without an answer: exited threads, threads
 * that block the signal (asked again, or settled as asleep in glibc), and
 * requested threads that went to sleep in glibc with everything masked
 * before the signal arrived. */
static bool check_unparked(int pid) {
  for (int i = 0; i < md_stop_slots_used; i++) {
    struct slot *s = slot_at(i);
    int st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
    if (st == SLOT_WAITING) {
      if (!ask(s, pid))
        return false;
      continue;
    }
    if (st != SLOT_REQUESTED)
      continue;
    uint64_t blocked;
    char state = 0;
    if (!thread_status(s->tid, &blocked, &state)) {
      if (md_sys3(SYS_tgkill, pid, s->tid, 0) == -ESRCH &&
          take_back(s, SLOT_REQUESTED, SLOT_GONE))
        md_stop_settled_count++;
      continue;
    }
    if (state == 'Z' || state == 'X') {
      if (take_back(s, SLOT_REQUESTED, SLOT_GONE))
        md_stop_settled_count++;
      continue;
    }
    uintptr_t sp = ((blocked >> (STOP_SIGNAL - 1)) & 1)
                       ? asleep_masked_in_libc(s->tid, blocked, state)
                       : 0;
    if (sp && take_back(s, SLOT_REQUESTED, SLOT_MASKED)) {
      md_stop_settled_count++;
      s->sp = sp; /* only once ours: its handler may have taken it */
      s->tp = 0;
      handler_sticky = true; /* our signal stays pending in it */
    }
  }
  return true;
}

/* Waits until every listed thread parked or settled; false when none made
 * progress until the deadline. The deadline moves with progress: on a
 * machine with far more busy threads than CPUs, each thread must wait its
 * turn to run its handler, and a slow stop is not a stuck one. */
static bool wait_parked(int pid, long long *deadline) {
  long long interval = FIRST_CHECK_NS, next_check = now_ns() + interval;
  int done_before = -1;
  for (;;) {
    int parked = __atomic_load_n(&md_stop_parked_count, __ATOMIC_ACQUIRE);
    if (parked + md_stop_settled_count >= md_stop_slots_used)
      return true;
    long long now = now_ns();
    if (parked + md_stop_settled_count != done_before) {
      if (done_before >= 0)
        *deadline = now + STOP_TIMEOUT_S * 1000000000ll;
      done_before = parked + md_stop_settled_count;
    }
    if (now >= *deadline) {
      md_stop_fallback_why = NULL;
      return false;
    }
    if (now >= next_check) {
      if (!check_unparked(pid))
        return false;
      if (interval < MAX_CHECK_NS)
        interval *= 2;
      next_check = now + interval;
      continue;
    }
    struct timespec ts = {0, 1000000}; /* 1 ms */
    futex(&md_stop_parked_count, FUTEX_WAIT_PRIVATE, parked, &ts);
  }
}

/* After a failure: gives up every slot not taken, then waits until the
 * handlers that did take theirs have parked and counted themselves (a few
 * stores away). Names one thread that did not stop. */
static void abandon_unparked(void) {
  int parked = 0;
  for (int i = 0; i < md_stop_slots_used; i++) {
    struct slot *s = slot_at(i);
    int was = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
    if (was == SLOT_WAITING || take_back(s, SLOT_REQUESTED, SLOT_ABANDONED)) {
      if (was == SLOT_REQUESTED)
        handler_sticky = true; /* our signal may still be pending in it */
      if (!md_stop_fallback_tid) {
        md_stop_fallback_tid = s->tid;
        if (!md_stop_fallback_why)
          md_stop_fallback_why = was != SLOT_WAITING
                                     ? "it did not answer the stop "
                                       "signal"
                                 : s->stop_sig == WAIT_SIGWAIT
                                     ? "it waits for the stop signal in sigwait"
                                     : "it blocks the stop signal";
      }
      s->state = SLOT_ABANDONED;
      continue;
    }
    int st;
    while ((st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE)) == SLOT_SAVING)
      sched_yield();
    parked += st == SLOT_PARKED;
  }
  while (__atomic_load_n(&md_stop_parked_count, __ATOMIC_ACQUIRE) < parked)
    sched_yield();
}

static bool install_handler(void) {
  if (handler_installed)
    return true;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = stop_handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset(&sa.sa_mask);
  if (sigaction(STOP_SIGNAL, &sa, &prev_action) != 0)
    return false;
  handler_installed = true;
  return true;
}

void md_stop_signals_resume(void) {
  __atomic_store_n(&md_stop_slot_count, 0,
                   __ATOMIC_RELEASE); /* late signals: not ours */
  __atomic_add_fetch(&resume_word, 1, __ATOMIC_RELEASE);
  futex(&resume_word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL);
  if (handler_installed && !handler_sticky &&
      sigaction(STOP_SIGNAL, &prev_action, NULL) == 0)
    handler_installed = false;
}

bool md_stop_signals(int pid, int self) {
  md_stop_fallback_why = NULL;
  md_stop_fallback_tid = 0;
  if (!install_handler()) {
    md_stop_fallback_why = "cannot install the stop signal handler";
    return false;
  }
  sent_pid = pid;
  long long deadline = now_ns() + STOP_TIMEOUT_S * 1000000000ll;
  for (;;) {
    int asked = md_stop_for_new_threads(self, add_waiting, NULL);
    if (asked < 0) {
      if (!md_stop_fallback_why)
        md_stop_fallback_why = "cannot list the threads (/proc/self/task)";
      break;
    }
    bool ok = true;
    for (int i = 0; i < md_stop_slots_used && ok; i++)
      if (__atomic_load_n(&slot_at(i)->state, __ATOMIC_ACQUIRE) == SLOT_WAITING)
        ok = ask(slot_at(i), pid);
    if (!ok)
      break;
    if (asked == 0 && __atomic_load_n(&md_stop_parked_count, __ATOMIC_ACQUIRE) +
                              md_stop_settled_count >=
                          md_stop_slots_used)
      return true; /* everyone seen is parked or gone, and no one is new */
    if (!wait_parked(pid, &deadline))
      break;
  }
  abandon_unparked();
  return false;
}

