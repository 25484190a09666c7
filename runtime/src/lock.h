/* lock.h - the runtime's spin lock: tiny, statically initialisable, usable
 * before libc is up and inside fork handlers. Never allocates. Held only for
 * short critical sections (a hash probe, a report); waiters yield. */
#ifndef MDEBUG_LOCK_H
#define MDEBUG_LOCK_H

#include <sched.h>
#include <signal.h>
#include <stdbool.h>

static inline void md_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

typedef struct {
  int locked;
} md_lock_t;
#define MD_LOCK_INIT {0}

static inline void md_lock(md_lock_t *l) {
  for (;;) {
    if (!__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
      return;
    for (int spins = 0; __atomic_load_n(&l->locked, __ATOMIC_RELAXED);) {
      if (++spins < 64)
        md_cpu_relax();
      else
        sched_yield();
    }
  }
}
/* One try; true if taken. */
static inline bool md_trylock(md_lock_t *l) {
  return !__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE);
}
static inline void md_unlock(md_lock_t *l) {
  __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}
static inline void md_lock_reset(md_lock_t *l) { l->locked = 0; }

/* The lock, held with every signal blocked (*old: the mask to restore), for
 * a lock that an allocation from a signal handler may want on the thread
 * that holds it (it would spin there forever). Two system calls: only
 * where a call makes system calls anyway, or once per origin; never on a
 * fast path. pthread_sigmask is async-signal-safe and leaves errno alone
 * (free must keep it); it keeps glibc's own two signals open, whose
 * handlers do not allocate. */
static inline void md_lock_signals_blocked(md_lock_t *l, sigset_t *old) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, old);
  md_lock(l);
}
static inline void md_unlock_signals_restored(md_lock_t *l,
                                              const sigset_t *old) {
  md_unlock(l);
  pthread_sigmask(SIG_SETMASK, old, NULL);
}

#endif
