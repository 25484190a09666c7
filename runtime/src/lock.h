/* lock.h - the runtime's spin lock: tiny, statically initialisable, usable
 * before libc is up and inside fork handlers. Never allocates. Held only for
 * short critical sections (a hash probe, a report); waiters yield. */
#ifndef MDEBUG_LOCK_H
#define MDEBUG_LOCK_H

#include <sched.h>
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

#endif
