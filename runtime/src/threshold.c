/* threshold.c - vm_threshold and rss_threshold (Raphael's vmPeak trigger):
 * when the process's virtual or resident size reaches its threshold, a heap
 * dump (PREFIX.PID.vm.N.txt / .rss.N.txt) and the top sites by bytes, once
 * per crossing; a threshold is armed again once the size has fallen 10%
 * below it.
 *
 * The virtual size is /proc's VmSize less the part of mdebug's heap
 * reservation (512 GiB of PROT_NONE address space, mapped at start-up) that
 * the heap has not committed: what the heap uses counts, what it merely
 * reserved does not. Everything else counts as the kernel counts it (the
 * program's mappings, libraries, thread stacks, the runtime's own tables,
 * record_allocs' buffer).
 *
 * Checked cheaply: /proc/self/statm is read only after the process grew by a step (1/32 of the smallest
 * threshold, at least 64 KiB) through calls mdebug sees (mappings, the
 * heap's commits, thread stacks), or after an unmap while a threshold waits
 * to be armed again, and every 100 ms by a watcher thread (pages touched
 * after they were mapped grow the resident size without a call), and once
 * at exit. Growth seen inside the runtime (a commit under a heap lock) only
 * wakes the watcher; the program's own calls check in place. Nothing here
 * runs at all when neither option is set.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base.h"
#include "arch_x86_64.h"
#include "heap.h"
#include "heapdump.h"
#include "lock.h"
#include "log.h"
#include "mappings.h"
#include "options.h"
#include "platform.h"
#include "print.h"
#include "threshold.h"
#include "usage.h"

#define POLL_MS 100
#define STEP_MIN (64u << 10)
#define TOP_SITES 10

struct watch {
  const char *option, *what, *suffix;
  size_t threshold;
  bool armed;
  unsigned crossings;
};

static struct watch watches[2] = {
    {"vm_threshold", "virtual size", "vm", 0, true, 0},
    {"rss_threshold", "resident size", "rss", 0, true, 0},
};

static bool active;
static size_t step, grown;
static int pipe_fds[2] = {-1, -1};
static md_lock_t check_lock = MD_LOCK_INIT;
static bool any_disarmed;

/* Opened afresh each time (a few microseconds, a few times a second at
 * most): a descriptor kept open could be closed, or replaced, by the
 * program. */
MD_COLD static bool read_statm(size_t *vm, size_t *rss) {
  char buf[256];
  int fd = (int)md_sys4(SYS_openat, AT_FDCWD, "/proc/self/statm",
                        O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return false;
  long n = md_sys3(SYS_read, fd, buf, sizeof(buf) - 1);
  md_sys1(SYS_close, fd);
  if (n <= 0)
    return false;
  buf[n] = '\0';
  char *p = buf;
  size_t v[2] = {0, 0};
  for (int i = 0; i < 2; i++) {
    while (*p == ' ')
      p++;
    if (*p < '0' || *p > '9')
      return false;
    while (*p >= '0' && *p <= '9')
      v[i] = v[i] * 10 + (size_t)(*p++ - '0');
  }
  size_t page = 4096;
  *vm = v[0] * page;
  *rss = v[1] * page;
  return true;
}

/* VmSize less the heap's reserved, uncommitted address space (the primary
 * range's, and the large range's: page_guard's pool, the secondary's
 * arena) and the runtime's other idle reservations (the leak check's
 * reserve: md_idle_reserve). */
static size_t effective_vm(size_t vm) {
  size_t kept = md_idle_reserve();
  vm = vm > kept ? vm - kept : 0;
  if (!md_heap.reserved)
    return vm;
  size_t large = __atomic_load_n(&md_heap_large_committed, __ATOMIC_RELAXED);
  size_t unused = md_heap.size - md_mmap_heap_committed() +
                  (md_heap.large_size > large ? md_heap.large_size - large : 0);
  return vm > unused ? vm - unused : 0;
}

static void fire(struct watch *w, size_t value) {
  w->crossings++;
  if (w == &watches[0])
    md_log("mdebug: %s: the %s reached %zu bytes (threshold %zu; mdebug's "
           "unused heap reservation left out)",
           w->option, w->what, value, w->threshold);
  else
    md_log("mdebug: %s: the %s reached %zu bytes (threshold %zu)", w->option,
           w->what, value, w->threshold);
  char path[MD_PATH_MAX + 48];
  const char *prefix = md_opt.backtrace_dump_prefix[0]
                           ? md_opt.backtrace_dump_prefix
                           : "/tmp/backtrace_heap";
  md_format(path, sizeof(path), "%s.%d.%s.%u.txt", prefix, md_getpid(),
            w->suffix, w->crossings);
  md_heap_dump(path);
  struct md_usage u;
  if (md_usage_collect(&u)) {
    md_usage_log(&u, "mdebug: top sites: ", TOP_SITES);
    md_usage_free(&u);
  } else {
    md_log("mdebug: %s: not enough memory to list the top sites", w->option);
  }
}

/* The watcher skips a check another thread is making; a thread that grew
 * the process waits for it, then checks itself (the other may have read
 * the sizes before this growth). */
MD_COLD static void check(bool wait) {
  if (wait)
    md_lock(&check_lock);
  else if (!md_trylock(&check_lock))
    return;
  size_t vm, rss;
  if (read_statm(&vm, &rss)) {
    size_t values[2] = {effective_vm(vm), rss};
    bool disarmed = false;
    for (int i = 0; i < 2; i++) {
      struct watch *w = &watches[i];
      if (!w->threshold)
        continue;
      if (w->armed && values[i] >= w->threshold) {
        w->armed = false;
        fire(w, values[i]);
      } else if (!w->armed && values[i] < w->threshold - w->threshold / 10) {
        w->armed = true;
      }
      disarmed |= !w->armed;
    }
    __atomic_store_n(&any_disarmed, disarmed, __ATOMIC_RELAXED);
  }
  md_unlock(&check_lock);
}

static void wake(void) {
  char c = 0;
  if (pipe_fds[1] >= 0)
    md_sys3(SYS_write, pipe_fds[1], &c, 1); /* full: a wake is pending */
}

void md_threshold_grew(size_t bytes, bool can_check) {
  if (MD_LIKELY(!__atomic_load_n(&active, __ATOMIC_RELAXED)))
    return;
  if (__atomic_add_fetch(&grown, bytes, __ATOMIC_RELAXED) < step)
    return;
  __atomic_store_n(&grown, 0, __ATOMIC_RELAXED);
  if (can_check)
    check(true);
  else
    wake();
}

void md_threshold_shrank(void) {
  if (MD_UNLIKELY(__atomic_load_n(&any_disarmed, __ATOMIC_RELAXED)))
    check(true);
}

MD_COLD static void *watcher(void *arg) {
  (void)arg;
  struct pollfd p = {pipe_fds[0], POLLIN, 0};
  for (;;) {
    int n = poll(&p, 1, POLL_MS);
    if (n > 0) {
      char buf[64];
      if (read(pipe_fds[0], buf, sizeof(buf)) <= 0)
        return NULL;
    }
    check(false);
  }
}

MD_COLD static void start_watcher(void) {
  if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    pipe_fds[0] = pipe_fds[1] = -1;
    md_log("mdebug: cannot create the threshold watcher's pipe; thresholds "
           "are checked only on mdebug's calls");
    return;
  }
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&t, &attr, watcher, NULL) != 0)
    md_log("mdebug: cannot start the threshold watcher thread; thresholds "
           "are checked only on mdebug's calls");
  pthread_attr_destroy(&attr);
}

static void at_exit(void) {
  if (__atomic_load_n(&active, __ATOMIC_RELAXED))
    check(true);
}

void md_threshold_init(void) {
  watches[0].threshold = md_opt.vm_threshold;
  watches[1].threshold = md_opt.rss_threshold;
  size_t least = 0;
  for (int i = 0; i < 2; i++)
    if (watches[i].threshold && (!least || watches[i].threshold < least))
      least = watches[i].threshold;
  if (!least)
    return;
  size_t vm, rss;
  if (!read_statm(&vm, &rss)) {
    md_log("mdebug: cannot read /proc/self/statm: vm_threshold and "
           "rss_threshold are off");
    return;
  }
  step = least / 32 > STEP_MIN ? least / 32 : STEP_MIN;
  __atomic_store_n(&active, true, __ATOMIC_RELEASE);
  atexit(at_exit);
  start_watcher();
  check(true); /* already past it at start-up */
}

/* The child starts its own watcher (the parent's thread is not there). */
void md_threshold_atfork_child(void) {
  md_lock_reset(&check_lock);
  if (!__atomic_load_n(&active, __ATOMIC_RELAXED))
    return;
  if (pipe_fds[0] >= 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
  }
  start_watcher();
}
