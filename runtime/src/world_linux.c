/* world_linux.c - stopping every other thread of the process, and listing the
 * memory a leak scan must treat as roots while they are stopped: writable
 * segments of loaded modules, each thread's stack, saved registers, static
 * TLS and thread descriptor, and the regions the program registered.
 *
 * Stopping: the threads are listed from /proc/self/task (getdents64 on a raw
 * fd) and each is sent STOP_SIGNAL with tgkill. Its handler copies the
 * thread's registers, stack pointer and thread pointer into the thread's
 * slot, publishes "parked" and waits on a futex until resumed. Listing is
 * repeated until it finds no thread it has not asked to stop, so threads
 * created meanwhile are caught (a parked thread cannot create more). A
 * thread that exits, or is a zombie (a main thread after pthread_exit), is
 * skipped. A thread asleep inside glibc with every signal blocked (a
 * detached thread ending, waiting for a lock a parked thread holds) cannot
 * answer but cannot run either: it counts as stopped, with its stack from
 * the stack pointer /proc gives. A thread that does not park (it blocks the
 * signal, is ptrace-stopped, sits in uninterruptible sleep) makes the stop
 * fail once STOP_TIMEOUT_S pass with no thread parking: every parked thread
 * is resumed, and the reason goes to md_log.
 *
 * Costs to the program: a thread interrupted in a call that SA_RESTART does
 * not restart (poll, epoll_wait, nanosleep, sleep, sigtimedwait, ...) sees
 * EINTR, as with any signal. While a stop runs, the program's own handler
 * for STOP_SIGNAL is replaced (it is called for signals that are not ours).
 *
 * Never allocates through malloc: memory comes from md_mmap and is kept
 * from one stop to the next; files are read with raw system calls, which
 * are also not cancellation points. Between stopping and resuming this file
 * calls nothing that takes a user-space lock (no stdio, dladdr, malloc,
 * md_log): dl_iterate_phdr, which takes the loader's lock, runs before the
 * threads are stopped; /proc/self/maps is read after, when no other thread
 * can change the address space, so stack bounds and segments are exact.
 * Nothing here stores a pointer to a user block where a scan would see it:
 * saved registers live in mmap'ed slots (reported only as "registers"),
 * registered regions are kept bit-inverted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/futex.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "internal.h"
#include "lock.h"

/* SIGRTMAX-13 (51 with glibc). malloc debug's triggers use SIGRTMAX-19 ..
 * SIGRTMAX-15 (see DESIGN.md); glibc reserves the first real-time signals
 * (SIGCANCEL, SIGSETXID), which SIGRTMIN already skips. */
#define STOP_SIGNAL (SIGRTMAX - 13)
#define STOP_TIMEOUT_S 5
#define FIRST_CHECK_NS 10000000ll /* unparked threads are looked at after */
#define MAX_CHECK_NS 160000000ll  /* ... then at doubling intervals up to */
#define RED_ZONE 128 /* the x86-64 ABI's, below the stack pointer */
#define SLOTS_PER_CHUNK 1024
#define MAX_CHUNKS 256 /* so at most 262144 threads */
#define MAX_THREADS (SLOTS_PER_CHUNK * MAX_CHUNKS)
#define MAX_ROOTS 256
#define NGREGS 23     /* NGREG of x86-64 ucontext */
#define NXMM_WORDS 32 /* xmm0-15, 2 words each */

/* One thread's saved state. A slot changes hands by CAS on state:
 * REQUESTED (the controller asked) -> SAVING -> PARKED (the thread's
 * handler), or REQUESTED -> GONE / MASKED / ABANDONED (the controller: the
 * thread exited; it sleeps inside glibc with every signal blocked; it did
 * not answer in time). */
enum {
  SLOT_FREE,
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
  uintptr_t sp, tp;
  uintptr_t regs[NGREGS + NXMM_WORDS]; /* gregs then xmm0-15 */
} __attribute__((aligned(64)));

/* A line of /proc/self/maps. */
struct mapping {
  uintptr_t start, end;
  bool readable;
};

/* A writable PT_LOAD segment. */
struct segment {
  uintptr_t begin, end;
};

extern void _dl_get_tls_static_info(size_t *size, size_t *align)
    __attribute__((weak));

/* ---- state shared with the signal handler -------------------------------- */
static struct slot *chunks[MAX_CHUNKS];
static int *slot_tids; /* tid of slot i, contiguous for fast search */
static int
    slot_count; /* slots valid for the handler's lookup; 0 between stops */
static int parked_count; /* handlers that parked in this stop (futex word) */
static int resume_word;  /* bumped to resume (futex word) */
static struct sigaction
    prev_action; /* the program's, while ours is installed */
static bool handler_installed;
/* Set once a thread was given up on with the signal pending: from then on
 * the handler stays, or that signal's default action would end the process
 * whenever the thread unblocks it. */
static bool handler_sticky;

/* ---- the controller's state, under world_lock ---------------------------- */
static int world_lock;      /* owner's pid; 0 when free (see pid_lock) */
static int world_owner_tid; /* while fn runs */
static bool world_stopped;
static __thread int in_world_stop __attribute__((tls_model("initial-exec")));
static struct slot *self_slot; /* the calling thread, mmap'ed */
static int slots_used;         /* slots handed out in this stop */
static int settled_count;      /* slots GONE or MASKED */
static size_t tls_static_size; /* static TLS and descriptor, from ld.so */
static size_t tls_below;       /* how far below tp the modules' TLS reaches */
static struct segment *segments;
static size_t segment_count, segment_capacity;
static struct mapping *maps;
static size_t map_count, map_capacity;
static char *maps_text;
static size_t maps_text_capacity;
static char task_buf[4096];
static char failure[256]; /* why the last stop failed */

/* ---- registered roots, under roots_lock ---------------------------------- */
static struct {
  uintptr_t inv_begin; /* ~begin: never seen as a pointer by a scan */
  size_t size;
} roots[MAX_ROOTS];
static size_t root_count;
static int roots_lock;

/* A spin lock holding its owner's pid, so a child forked while the parent
 * held it (the holder does not exist in the child) takes it over instead of
 * waiting forever. Waiters spin with signals open, so they can be stopped. */
static void pid_lock(int *lock) {
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
static void pid_unlock(int *lock) {
  __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

static long futex(int *word, int op, int val, const struct timespec *timeout) {
  return syscall(SYS_futex, word, op, val, timeout, NULL, 0);
}

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static inline struct slot *slot_at(int i) {
  return &chunks[i / SLOTS_PER_CHUNK][i % SLOTS_PER_CHUNK];
}

/* ---- the signal handler -------------------------------------------------- */

static void forward(int sig, siginfo_t *info, void *uc) {
  /* Not a stop request: the program's own use of the signal, or a late copy
   * of ours (a thread that did not answer a stop that timed out). */
  if (prev_action.sa_flags & SA_SIGINFO) {
    if (prev_action.sa_sigaction)
      prev_action.sa_sigaction(sig, info, uc);
  } else if (prev_action.sa_handler != SIG_DFL &&
             prev_action.sa_handler != SIG_IGN) {
    prev_action.sa_handler(sig);
  }
}

/* Runs with every signal blocked. Touches no TLS but errno, which it
 * restores: the interrupted code must not see the futex calls' errors. */
static void stop_handler(int sig, siginfo_t *info, void *ucv) {
  int saved_errno = errno;
  int tid = (int)syscall(SYS_gettid);
  int n = __atomic_load_n(&slot_count, __ATOMIC_ACQUIRE);
  struct slot *s = NULL;
  for (int i = 0; i < n; i++) {
    if (__atomic_load_n(&slot_tids[i], __ATOMIC_RELAXED) != tid)
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
  if (!s) {
    forward(sig, info, ucv);
    errno = saved_errno;
    return;
  }
  /* Read only now that the slot is ours: the controller bumps resume_word
   * after every slot of its stop is PARKED or given up, and this slot was
   * handed out after the previous stop's bump. */
  int gen = __atomic_load_n(&resume_word, __ATOMIC_ACQUIRE);
  ucontext_t *uc = ucv;
  memcpy(s->regs, uc->uc_mcontext.gregs, sizeof(uintptr_t) * NGREGS);
  if (uc->uc_mcontext.fpregs)
    memcpy(&s->regs[NGREGS], uc->uc_mcontext.fpregs->_xmm,
           sizeof(uintptr_t) * NXMM_WORDS);
  else
    memset(&s->regs[NGREGS], 0, sizeof(uintptr_t) * NXMM_WORDS);
  s->sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  s->tp = (uintptr_t)__builtin_thread_pointer();
  __atomic_store_n(&s->state, SLOT_PARKED, __ATOMIC_RELEASE);
  /* From here on the slot is the controller's; it may be reused. The count
   * comes last: the controller waits for it before resuming anyone, so no
   * late increment can fall into the next stop. */
  __atomic_add_fetch(&parked_count, 1, __ATOMIC_RELEASE);
  futex(&parked_count, FUTEX_WAKE_PRIVATE, 1, NULL);
  while (__atomic_load_n(&resume_word, __ATOMIC_ACQUIRE) == gen)
    futex(&resume_word, FUTEX_WAIT_PRIVATE, gen, NULL);
  errno = saved_errno;
}

/* ---- files, read with raw system calls ----------------------------------- */

static int open_raw(const char *path, int flags) {
  return (int)syscall(SYS_openat, AT_FDCWD, path, flags | O_RDONLY | O_CLOEXEC);
}

/* Reads up to size-1 bytes of a small file, NUL-terminated; -1 if absent. */
static long read_small_file(const char *path, char *buf, size_t size) {
  int fd = open_raw(path, 0);
  if (fd < 0)
    return -1;
  size_t got = 0;
  for (long n; got + 1 < size; got += (size_t)n) {
    n = syscall(SYS_read, fd, buf + got, size - 1 - got);
    if (n < 0 && errno == EINTR) {
      n = 0;
      continue;
    }
    if (n <= 0)
      break;
  }
  syscall(SYS_close, fd);
  buf[got] = '\0';
  return (long)got;
}

/* The state letter of /proc/self/task/TID/stat ('R', 'S', 'Z', ...), or 0
 * when the thread no longer exists. */
static char thread_state(int tid) {
  char path[64], buf[512];
  md_format(path, sizeof(path), "/proc/self/task/%d/stat", tid);
  if (read_small_file(path, buf, sizeof(buf)) <= 0)
    return 0;
  char *paren = strrchr(buf, ')'); /* the name may contain anything */
  return paren && paren[1] == ' ' ? paren[2] : '?';
}

static uintptr_t parse_hex(const char **p);

/* The thread's blocked signals (bit sig-1) and state letter, from
 * /proc/self/task/TID/status; false if it cannot be read. */
static bool thread_status(int tid, uint64_t *blocked, char *state) {
  char path[64], buf[2048];
  md_format(path, sizeof(path), "/proc/self/task/%d/status", tid);
  if (read_small_file(path, buf, sizeof(buf)) <= 0)
    return false;
  const char *st = strstr(buf, "\nState:"), *p = strstr(buf, "\nSigBlk:");
  if (!st || !p)
    return false;
  for (st += 7; *st == ' ' || *st == '\t';)
    st++;
  for (p += 8; *p == ' ' || *p == '\t';)
    p++;
  *state = *st;
  *blocked = parse_hex(&p);
  return true;
}

static bool thread_blocks(int tid, int sig) {
  uint64_t blocked;
  char state;
  return thread_status(tid, &blocked, &state) && ((blocked >> (sig - 1)) & 1);
}

/* A thread asleep inside glibc with every signal blocked, SIGCANCEL too
 * (which glibc's pthread_sigmask never lets a program block): a thread on
 * its way out after its last user code ran (it blocks all signals, then,
 * if detached, takes the stack cache lock a stopped thread may hold), or a
 * new one not yet running user code. It will not answer; asleep while
 * everyone else is stopped it cannot run either. Returns its stack pointer
 * (from /proc/self/task/TID/syscall), or 0 if it is not such a thread. */
static uintptr_t asleep_masked_in_libc(int tid) {
  uint64_t blocked;
  char state;
  int sigcancel = __SIGRTMIN; /* glibc's SIGCANCEL, the kernel's first */
  if (!thread_status(tid, &blocked, &state) || state != 'S' ||
      !((blocked >> (sigcancel - 1)) & 1) ||
      !((blocked >> (STOP_SIGNAL - 1)) & 1))
    return 0;
  char path[64], buf[512];
  md_format(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
  if (read_small_file(path, buf, sizeof(buf)) <= 0)
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
  return parse_hex(&sp);
}

/* ---- growable mmap'ed arrays --------------------------------------------- */

static bool grow(void **array, size_t *capacity, size_t elem, size_t want) {
  if (want <= *capacity)
    return true;
  size_t cap = *capacity ? *capacity : 256;
  while (cap < want)
    cap *= 2;
  void *p = md_mmap(cap * elem);
  if (!p)
    return false;
  if (*array) {
    memcpy(p, *array, *capacity * elem);
    md_munmap(*array, *capacity * elem);
  }
  *array = p;
  *capacity = cap;
  return true;
}

/* ---- before the stop: modules -------------------------------------------- */

static int add_module(struct dl_phdr_info *info, size_t size, void *data) {
  bool *ok = data;
  /* A module in static TLS has its block at the same distance below every
   * thread's tp; dlpi_tls_data is the calling thread's copy (or a dynamic
   * block, or NULL, for modules dlopen'ed without static TLS). */
  if (size >= offsetof(struct dl_phdr_info, dlpi_tls_data) + sizeof(void *) &&
      info->dlpi_tls_data) {
    uintptr_t off =
        (uintptr_t)__builtin_thread_pointer() - (uintptr_t)info->dlpi_tls_data;
    if (off <= tls_static_size && off > tls_below)
      tls_below = off;
  }
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz == 0)
      continue;
    if (!grow((void **)&segments, &segment_capacity, sizeof(struct segment),
              segment_count + 1)) {
      *ok = false;
      return 1;
    }
    uintptr_t begin = info->dlpi_addr + ph->p_vaddr;
    segments[segment_count++] = (struct segment){begin, begin + ph->p_memsz};
  }
  return 0;
}

/* ---- after the stop: the address space ----------------------------------- */

static uintptr_t parse_hex(const char **p) {
  uintptr_t v = 0;
  for (;; (*p)++) {
    char c = **p;
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                   : -1;
    if (d < 0)
      return v;
    v = v << 4 | (uintptr_t)d;
  }
}

static bool read_maps(void) {
  /* Not /proc/self/maps: it reads empty once the main thread has called
   * pthread_exit (a zombie leader has no address space of its own). */
  int fd = open_raw("/proc/thread-self/maps", 0);
  if (fd < 0) /* Linux before 3.17 */
    fd = open_raw("/proc/self/maps", 0);
  if (fd < 0)
    return false;
  size_t len = 0;
  for (;;) {
    if (!grow((void **)&maps_text, &maps_text_capacity, 1, len + 65536)) {
      syscall(SYS_close, fd);
      return false;
    }
    long n = syscall(SYS_read, fd, maps_text + len, maps_text_capacity - len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    len += (size_t)n;
  }
  syscall(SYS_close, fd);
  size_t lines = 0;
  for (size_t i = 0; i < len; i++)
    lines += maps_text[i] == '\n';
  if (!grow((void **)&maps, &map_capacity, sizeof(struct mapping), lines + 1))
    return false;
  map_count = 0;
  for (const char *p = maps_text, *end = maps_text + len; p < end;) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      eol = end;
    struct mapping m;
    m.start = parse_hex(&p);
    if (*p == '-') {
      p++;
      m.end = parse_hex(&p);
      m.readable = *p == ' ' && p[1] == 'r';
      /* [vvar] pages can fault on read (time namespaces); [vsyscall] is
       * execute-only. Neither holds pointers to blocks. */
      const char *name = memchr(p, '[', (size_t)(eol - p));
      if (name && (strncmp(name, "[vvar", 5) == 0 ||
                   strncmp(name, "[vsyscall]", 10) == 0))
        m.readable = false;
      if (m.end > m.start)
        maps[map_count++] = m;
    }
    p = eol + 1;
  }
  return true;
}

/* The mapping containing addr, or NULL. */
static const struct mapping *mapping_of(uintptr_t addr) {
  size_t lo = 0, hi = map_count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (maps[mid].end <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < map_count && maps[lo].start <= addr ? &maps[lo] : NULL;
}

/* ---- stopping and resuming ----------------------------------------------- */

/* Slot for tid, or -1; the controller's search (the handler has its own). */
static int find_slot(int tid) {
  for (int i = 0; i < slots_used; i++)
    if (slot_tids[i] == tid)
      return i;
  return -1;
}

static int new_slot(int tid) {
  if (slots_used == MAX_THREADS)
    return -1;
  int i = slots_used;
  if (!chunks[i / SLOTS_PER_CHUNK]) {
    chunks[i / SLOTS_PER_CHUNK] =
        md_mmap(sizeof(struct slot) * SLOTS_PER_CHUNK);
    if (!chunks[i / SLOTS_PER_CHUNK])
      return -1;
  }
  struct slot *s = slot_at(i);
  __atomic_store_n(&s->state, SLOT_FREE, __ATOMIC_RELAXED);
  __atomic_store_n(&s->tid, tid, __ATOMIC_RELAXED);
  __atomic_store_n(&slot_tids[i], tid, __ATOMIC_RELAXED);
  __atomic_store_n(&s->state, SLOT_REQUESTED, __ATOMIC_RELEASE);
  slots_used++;
  __atomic_store_n(&slot_count, slots_used, __ATOMIC_RELEASE);
  return i;
}

/* Gives up on a slot the thread has not taken yet; true if we got it. */
static bool take_back(struct slot *s, int to) {
  int want = SLOT_REQUESTED;
  return __atomic_compare_exchange_n(&s->state, &want, to, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

struct linux_dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* Lists the threads and signals those not asked yet. Returns how many were
 * newly asked, or -1 with *why set. */
static int signal_new_threads(int pid, int self, long long deadline,
                              const char **why) {
  int fd = open_raw("/proc/self/task", O_DIRECTORY);
  if (fd < 0) {
    *why = "cannot open /proc/self/task";
    return -1;
  }
  int asked = 0;
  for (;;) {
    long n = syscall(SYS_getdents64, fd, task_buf, sizeof(task_buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    for (long off = 0; off < n;) {
      struct linux_dirent64 *d = (struct linux_dirent64 *)(task_buf + off);
      off += d->d_reclen;
      int tid = 0;
      const char *c = d->d_name;
      for (; *c >= '0' && *c <= '9'; c++)
        tid = tid * 10 + (*c - '0');
      if (*c || tid <= 0 || tid == self || find_slot(tid) >= 0)
        continue;
      int i = new_slot(tid);
      if (i < 0) {
        syscall(SYS_close, fd);
        *why = "too many threads, or out of memory for their slots";
        return -1;
      }
      if (tid == pid) { /* a main thread after pthread_exit stays listed */
        char st = thread_state(tid);
        if ((st == 0 || st == 'Z' || st == 'X') &&
            take_back(slot_at(i), SLOT_GONE)) {
          settled_count++;
          continue;
        }
      }
      for (;;) {
        if (syscall(SYS_tgkill, pid, tid, STOP_SIGNAL) == 0) {
          asked++;
          break;
        }
        if (errno == ESRCH) { /* exited since the listing */
          if (take_back(slot_at(i), SLOT_GONE))
            settled_count++;
          break;
        }
        if (errno != EAGAIN || now_ns() > deadline) {
          take_back(slot_at(i), SLOT_ABANDONED);
          syscall(SYS_close, fd);
          *why = "cannot send the stop signal";
          return -1;
        }
        sched_yield(); /* the real-time signal queue is full */
      }
    }
  }
  syscall(SYS_close, fd);
  return asked;
}

/* Settles the asked threads that will not answer: those that exited (they
 * are reaped at once, tgkill then fails; only the main thread lingers, as a
 * zombie, after pthread_exit) and those asleep with signals masked inside
 * glibc (see asleep_masked_in_libc; their stack is still reported). */
static void check_unparked(int pid) {
  for (int i = 0; i < slots_used; i++) {
    struct slot *s = slot_at(i);
    if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != SLOT_REQUESTED)
      continue;
    int to = 0;
    uintptr_t sp = 0;
    if (s->tid == pid) {
      char st = thread_state(s->tid);
      if (st == 0 || st == 'Z' || st == 'X')
        to = SLOT_GONE;
    } else if (syscall(SYS_tgkill, pid, s->tid, 0) != 0 && errno == ESRCH) {
      to = SLOT_GONE;
    }
    if (!to && (sp = asleep_masked_in_libc(s->tid)) != 0)
      to = SLOT_MASKED;
    if (to && take_back(s, to)) {
      settled_count++;
      if (to == SLOT_MASKED) {
        s->sp = sp; /* only once ours: its handler may have taken it */
        s->tp = 0;
        handler_sticky = true; /* the signal stays pending in it */
      }
    }
  }
}

/* Waits until every asked thread parked or is gone; false when none made
 * progress until the deadline. The deadline moves with progress: on a
 * machine with far more busy threads than CPUs, each thread must wait its
 * turn to run its handler, and a slow stop is not a stuck one. */
static bool wait_parked(int pid, long long *deadline) {
  long long interval = FIRST_CHECK_NS, next_check = now_ns() + interval;
  int done_before = -1;
  for (;;) {
    int parked = __atomic_load_n(&parked_count, __ATOMIC_ACQUIRE);
    if (parked + settled_count >= slots_used)
      return true;
    long long now = now_ns();
    if (parked + settled_count != done_before) {
      if (done_before >= 0)
        *deadline = now + STOP_TIMEOUT_S * 1000000000ll;
      done_before = parked + settled_count;
    }
    if (now >= *deadline)
      return false;
    if (now >= next_check) {
      check_unparked(pid);
      if (interval < MAX_CHECK_NS)
        interval *= 2;
      next_check = now + interval;
      continue;
    }
    struct timespec ts = {0, 1000000}; /* 1 ms */
    futex(&parked_count, FUTEX_WAIT_PRIVATE, parked, &ts);
  }
}

/* After a failure: gives up every slot not taken, then waits until the
 * handlers that did take theirs have parked and counted themselves (a few
 * stores away). Notes one thread that did not answer. Returns how many were
 * given up. */
static int abandon_unparked(int *tid, char *state, bool *blocks) {
  int abandoned = 0, parked = 0;
  for (int i = 0; i < slots_used; i++) {
    struct slot *s = slot_at(i);
    if (take_back(s, SLOT_ABANDONED)) {
      if (!abandoned++) {
        *tid = s->tid;
        *state = thread_state(s->tid);
        *blocks = thread_blocks(s->tid, STOP_SIGNAL);
      }
      continue;
    }
    int st;
    while ((st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE)) == SLOT_SAVING)
      sched_yield();
    parked += st == SLOT_PARKED;
  }
  while (__atomic_load_n(&parked_count, __ATOMIC_ACQUIRE) < parked)
    sched_yield();
  return abandoned;
}

static void resume_all(void) {
  __atomic_store_n(&slot_count, 0,
                   __ATOMIC_RELEASE); /* late signals: not ours */
  __atomic_add_fetch(&resume_word, 1, __ATOMIC_RELEASE);
  futex(&resume_word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL);
}

/* Everything that must exist before threads are stopped. */
static bool prepare(const char **why) {
  if (!slot_tids) {
    slot_tids = md_mmap(sizeof(int) * MAX_THREADS);
    self_slot = md_mmap(sizeof(struct slot));
    if (!slot_tids || !self_slot) {
      *why = "out of memory (mmap failed)";
      return false;
    }
    size_t align;
    if (_dl_get_tls_static_info)
      _dl_get_tls_static_info(&tls_static_size, &align);
    if (tls_static_size == 0) /* not glibc's ld.so? a generous guess */
      tls_static_size = 16384;
  }
  segment_count = 0;
  tls_below = 0;
  bool ok = true;
  dl_iterate_phdr(add_module, &ok);
  if (tls_below == 0) /* no module with TLS seen: assume the largest */
    tls_below = tls_static_size;
  if (!ok)
    *why = "out of memory for the module list (mmap failed)";
  return ok;
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

static void restore_handler(void) {
  if (handler_installed && !handler_sticky &&
      sigaction(STOP_SIGNAL, &prev_action, NULL) == 0)
    handler_installed = false;
}

/* The caller's state as md_world_stop is entered, in a struct on the stack
 * (filled by the entry code below, read by world_stop). */
struct entry {
  uintptr_t rbx, rbp, r12, r13, r14, r15, sp, pad;
};

static bool world_stop(void (*fn)(void *arg), void *arg,
                       const struct entry *entry);

/* md_world_stop records the caller's callee-saved registers (the only ones
 * live across a call) and stack pointer before any compiled code can touch
 * them, then runs world_stop. The caller's stack region starts at that
 * stack pointer: md_world_stop's own frames, with their uninitialised
 * buffers (stale words from earlier calls), and fn's frames, which sit
 * below, are not roots. */
__attribute__((naked)) bool md_world_stop(void (*fn)(void *arg), void *arg) {
  __asm__ volatile(
      "push %%rbp\n\t"
      "mov %%rsp, %%rbp\n\t"
      "sub $64, %%rsp\n\t" /* struct entry; keeps 16-alignment */
      "mov %%rbx, 0(%%rsp)\n\t"
      "mov 0(%%rbp), %%rax\n\t" /* the caller's rbp, pushed above */
      "mov %%rax, 8(%%rsp)\n\t"
      "mov %%r12, 16(%%rsp)\n\t"
      "mov %%r13, 24(%%rsp)\n\t"
      "mov %%r14, 32(%%rsp)\n\t"
      "mov %%r15, 40(%%rsp)\n\t"
      "lea 16(%%rbp), %%rax\n\t" /* the caller's sp before the call */
      "mov %%rax, 48(%%rsp)\n\t"
      "mov %%rsp, %%rdx\n\t"
      "call %P0\n\t"
      "leave\n\t"
      "ret"
      :
      : "i"(world_stop));
}

static bool world_stop(void (*fn)(void *arg), void *arg,
                       const struct entry *entry) {
  if (in_world_stop) { /* from a signal handler that interrupted a stop */
    if (!world_stopped)
      md_log("mdebug: threads are already being stopped by this thread; "
             "nested stop refused");
    return false;
  }
  in_world_stop = 1;
  pid_lock(&world_lock);
  const char *why = NULL;
  int pid = md_getpid(), self = md_gettid();
  int bad_tid = 0;
  char bad_state = 0;
  bool bad_blocks = false, timed_out = false, ok = prepare(&why);
  pid_lock(&roots_lock); /* no stopped thread may hold it */
  if (ok && !install_handler()) {
    ok = false;
    why = "cannot install the stop signal handler";
  }
  if (ok) {
    slots_used = settled_count = 0;
    __atomic_store_n(&parked_count, 0, __ATOMIC_RELEASE);
    long long deadline = now_ns() + STOP_TIMEOUT_S * 1000000000ll;
    for (;;) {
      int asked = signal_new_threads(pid, self, deadline, &why);
      if (asked < 0) {
        ok = false;
        break;
      }
      if (asked == 0 &&
          __atomic_load_n(&parked_count, __ATOMIC_ACQUIRE) + settled_count >=
              slots_used)
        break; /* everyone seen is parked or gone, and no one is new */
      if (!wait_parked(pid, &deadline)) {
        ok = false;
        timed_out = true;
        why = "a thread did not stop in time";
        break;
      }
    }
    if (!ok && abandon_unparked(&bad_tid, &bad_state, &bad_blocks))
      handler_sticky = true;
  }
  if (ok && !read_maps()) {
    ok = false;
    why = "cannot read /proc/self/maps";
  }
  if (ok) {
    uintptr_t *r = self_slot->regs;
    r[REG_RBX] = entry->rbx;
    r[REG_RBP] = entry->rbp;
    r[REG_R12] = entry->r12;
    r[REG_R13] = entry->r13;
    r[REG_R14] = entry->r14;
    r[REG_R15] = entry->r15;
    r[REG_RSP] = entry->sp;
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
  if (handler_installed) {
    resume_all();
    restore_handler(); /* unless sticky */
  }
  pid_unlock(&roots_lock);
  pid_unlock(&world_lock);
  in_world_stop = 0;
  if (!ok) {
    if (timed_out && bad_tid)
      md_format(failure, sizeof(failure),
                "could not stop the other threads: thread %d did not answer "
                "signal %d (state %c%s) and none stopped for %d s",
                bad_tid, STOP_SIGNAL, bad_state ? bad_state : '?',
                bad_blocks ? ", signal blocked" : "", STOP_TIMEOUT_S);
    else
      md_format(failure, sizeof(failure),
                "could not stop the other threads: %s", why);
  }
  return ok;
}

const char *md_world_stop_failure(void) { return failure; }

/* ---- the roots ----------------------------------------------------------- */

struct visitor {
  void (*visit)(const struct md_region *r, void *arg);
  void *arg;
};

/* Reports the readable parts of [begin, end), contiguous runs merged, so a
 * scan never faults on a guard page or an unmapped hole. */
static void emit(const struct visitor *v, uintptr_t begin, uintptr_t end,
                 const char *kind, int tid) {
  if (begin >= end)
    return;
  size_t lo = 0, hi = map_count;
  while (lo < hi) { /* first mapping ending after begin */
    size_t mid = (lo + hi) / 2;
    if (maps[mid].end <= begin)
      lo = mid + 1;
    else
      hi = mid;
  }
  struct md_region r = {0, 0, kind, tid};
  for (size_t i = lo; i < map_count && maps[i].start < end; i++) {
    uintptr_t b = maps[i].start > begin ? maps[i].start : begin;
    uintptr_t e = maps[i].end < end ? maps[i].end : end;
    if (maps[i].readable && r.end == b && r.begin < r.end) {
      r.end = e;
      continue;
    }
    if (r.begin < r.end)
      v->visit(&r, v->arg);
    r.begin = r.end = 0;
    if (maps[i].readable) {
      r.begin = b;
      r.end = e;
    }
  }
  if (r.begin < r.end)
    v->visit(&r, v->arg);
}

/* Stack from the stack pointer (red zone included) to the end of its
 * mapping; static TLS and the thread descriptor around the thread pointer.
 * x86-64 glibc: the modules' static TLS blocks lie below tp (tls_below
 * covers them all), the descriptor (struct pthread: the dtv pointer, the
 * pthread_setspecific values) at and above tp. Its size is not exported,
 * but ld.so's static TLS size counts it, so what remains of that size above
 * tls_below covers it; clipped to tp's mapping, whose end it is for a
 * thread glibc made (descriptor and TLS sit at the top of its stack block;
 * the stack then ends where the TLS begins). */
static void thread_roots(const struct visitor *v, const struct slot *s,
                         uintptr_t red_zone) {
  const struct mapping *sm = mapping_of(s->sp);
  const struct mapping *tm = s->tp ? mapping_of(s->tp) : NULL;
  uintptr_t tls_begin = 0, tls_end = 0;
  if (tm) {
    size_t above = tls_static_size - tls_below;
    tls_begin = s->tp - tm->start > tls_below ? s->tp - tls_below : tm->start;
    tls_end = tm->end - s->tp > above ? s->tp + above : tm->end;
  }
  if (sm) {
    uintptr_t b = s->sp - sm->start > red_zone ? s->sp - red_zone : sm->start;
    uintptr_t e = sm->end;
    if (tm == sm && s->tp > s->sp)
      e = tls_begin > b ? tls_begin : b;
    emit(v, b, e, "stack", s->tid);
  }
  struct md_region regs = {(uintptr_t)s->regs,
                           (uintptr_t)(s->regs + NGREGS + NXMM_WORDS),
                           "registers", s->tid};
  v->visit(&regs, v->arg);
  if (tm)
    emit(v, tls_begin, tls_end, "tls", s->tid);
}

void md_world_roots(void (*visit)(const struct md_region *r, void *arg),
                    void *arg) {
  if (!world_stopped || world_owner_tid != md_gettid())
    return;
  struct visitor v = {visit, arg};
  for (size_t i = 0; i < segment_count; i++)
    emit(&v, segments[i].begin, segments[i].end, "module", 0);
  thread_roots(&v, self_slot, 0); /* it made a call: no red zone in use */
  for (int i = 0; i < slots_used; i++) {
    const struct slot *s = slot_at(i);
    int state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
    if (state == SLOT_PARKED) {
      thread_roots(&v, s, RED_ZONE);
    } else if (state == SLOT_MASKED) { /* no registers, no tp: the stack */
      const struct mapping *m = mapping_of(s->sp);
      if (m)
        emit(&v, s->sp - m->start > RED_ZONE ? s->sp - RED_ZONE : m->start,
             m->end, "stack", s->tid);
    }
  }
  for (size_t i = 0; i < root_count; i++) {
    uintptr_t b = ~roots[i].inv_begin;
    emit(&v, b, b + roots[i].size, "registered", 0);
  }
}

/* ---- registered roots ---------------------------------------------------- */

void md_world_register_root(const void *begin, size_t size) {
  pid_lock(&roots_lock);
  bool full = root_count == MAX_ROOTS;
  if (!full)
    roots[root_count++] = (__typeof__(roots[0])){~(uintptr_t)begin, size};
  pid_unlock(&roots_lock);
  if (full)
    md_log("mdebug: mdebug_register_root(%p, %zu): too many root regions "
           "(at most %d); this one is ignored",
           begin, size, MAX_ROOTS);
}

void md_world_unregister_root(const void *begin, size_t size) {
  pid_lock(&roots_lock);
  size_t i = 0;
  while (i < root_count &&
         (roots[i].inv_begin != ~(uintptr_t)begin || roots[i].size != size))
    i++;
  bool found = i < root_count;
  if (found) {
    roots[i] = roots[--root_count];
    roots[root_count].inv_begin = roots[root_count].size = 0;
  }
  pid_unlock(&roots_lock);
  if (!found)
    md_log("mdebug: mdebug_unregister_root(%p, %zu): no such region was "
           "registered",
           begin, size);
}
