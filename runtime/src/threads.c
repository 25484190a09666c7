/* threads.c - thread stacks: every stack glibc maps for a pthread_create
 * (guard page, stack, and the TLS and descriptor at its top) is accounted
 * with the site of that pthread_create, from the moment the thread runs
 * until glibc may reuse the stack: its join, or a detached thread's exit.
 * glibc then keeps the stack in its cache (up to 40 MiB), which is neither
 * the program's memory nor a leak, and is not accounted.
 *
 * pthread_create (an entry point, and the standard symbol) starts the
 * thread in a trampoline that learns its stack's bounds
 * (pthread_getattr_np) and notes the record; a pthread key's destructor
 * notes the exit (a detached thread's record goes then); pthread_join and
 * its variants, and pthread_detach, are defined here too. Records are
 * found by pthread_t, in 256 shards hashed by it, each with its own lock.
 * A joinable thread's pthread_t stays valid until its join, so its creator
 * files the record by it at once; a detached thread's may be stale as soon
 * as pthread_create returns, so only the thread itself files it. Whenever a
 * record is filed under a pthread_t that another record still holds, that
 * one is stale (glibc hands a descriptor out again only once the stack is
 * free) and goes. A join removes only the record it looked up before
 * waiting (a serial number tells it from a new thread's on the same
 * stack).
 *
 * Threads with a stack of their own (pthread_attr_setstack) are not
 * accounted: that memory is the program's (a mapping or a block). Neither
 * are the runtime's own threads, nor threads made without pthread_create.
 * Until the new thread reads it, the argument it is given lives only in
 * its record, which is runtime memory: md_threads_roots shows it to the
 * leak scan. Never allocates through malloc (records come from
 * md_tables_alloc).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "base.h"
#include "copies.h"
#include "lifecycle.h"
#include "lock.h"
#include "mappings.h"
#include "platform.h"
#include "print.h"
#include "scan_contract.h"
#include "stacks.h"
#include "thread_stacks.h"
#include "threshold.h"

#define SHARDS 256u
#define SLAB_BYTES (64u << 10)

enum {
  FILED = 1,    /* in its shard's list, under key */
  RUNNING = 2,  /* the bounds are known */
  EXITED = 4,   /* the key destructor ran */
  DETACHED = 8, /* created detached, or pthread_detach'ed */
};

struct trec {
  uintptr_t key; /* the pthread_t; 0 until known */
  uintptr_t lo, hi;
  size_t guard;
  md_origin_t origin;
  uint32_t stack, serial;
  uint8_t state, epoch;
  bool in_use;                   /* a slab slot handed out */
  void *(*start)(void *);
  void *arg;                     /* until the thread reads it (a root) */
  struct trec *next;             /* in its shard's list, or free */
};

struct shard {
  md_lock_t lock;
  struct trec *list, *free;
} __attribute__((aligned(64)));

static struct shard shards[SHARDS];
static uint32_t serials;

/* Slabs, newest first; only ever prepended (read by the leak scan while
 * the world is stopped, without a lock). */
struct slab {
  struct slab *next;
  size_t count;
  struct trec recs[];
};
static struct slab *slabs;
static md_lock_t slab_lock = MD_LOCK_INIT;
static struct trec *spare; /* under slab_lock */

static inline unsigned shard_of(uintptr_t key) {
  return (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 56) & (SHARDS - 1);
}

static struct trec *new_rec(void) {
  md_lock(&slab_lock);
  if (!spare) {
    struct slab *s = md_tables_alloc(SLAB_BYTES);
    if (!s) {
      md_unlock(&slab_lock);
      return NULL;
    }
    s->count = (SLAB_BYTES - sizeof(*s)) / sizeof(struct trec);
    for (size_t i = 0; i < s->count; i++) {
      s->recs[i].next = spare;
      spare = &s->recs[i];
    }
    s->next = slabs;
    __atomic_store_n(&slabs, s, __ATOMIC_RELEASE);
  }
  struct trec *r = spare;
  spare = r->next;
  md_unlock(&slab_lock);
  memset(r, 0, sizeof(*r));
  r->in_use = true;
  r->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
  return r;
}

static void free_rec(struct trec *r) {
  __atomic_store_n(&r->arg, NULL, __ATOMIC_RELAXED);
  r->in_use = false;
  md_lock(&slab_lock);
  r->next = spare;
  spare = r;
  md_unlock(&slab_lock);
}

/* ---- the shard lists (each under its lock) -------------------------------- */

static struct trec **find_slot(struct shard *sh, uintptr_t key) {
  struct trec **p = &sh->list;
  while (*p && (*p)->key != key)
    p = &(*p)->next;
  return p;
}

/* Files r under key; a record already there is stale (see the top) and is
 * returned for freeing. */
static struct trec *file(struct shard *sh, struct trec *r) {
  struct trec **p = find_slot(sh, r->key), *stale = NULL;
  if (*p && *p != r) {
    stale = *p;
    *p = stale->next;
    stale->state &= (uint8_t)~FILED;
  }
  if (!(r->state & FILED)) {
    r->next = sh->list;
    sh->list = r;
    r->state |= FILED;
  }
  return stale;
}

static void unfile(struct shard *sh, struct trec *r) {
  struct trec **p = &sh->list;
  while (*p && *p != r)
    p = &(*p)->next;
  if (*p)
    *p = r->next;
  r->state &= (uint8_t)~FILED;
}

/* ---- the real functions --------------------------------------------------- */

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
                         void *(*)(void *), void *);
typedef int (*join_fn)(pthread_t, void **);
typedef int (*tryjoin_fn)(pthread_t, void **);
typedef int (*timedjoin_fn)(pthread_t, void **, const struct timespec *);
typedef int (*clockjoin_fn)(pthread_t, void **, clockid_t,
                            const struct timespec *);
typedef int (*detach_fn)(pthread_t);

static struct {
  create_fn create;
  join_fn join;
  tryjoin_fn tryjoin;
  timedjoin_fn timedjoin;
  clockjoin_fn clockjoin;
  detach_fn detach;
} real;

static bool own(const void *fn) { return md_runtime_code((uintptr_t)fn); }

/* The C library's function, by its handle (glibc 2.34 moved pthread into
 * libc.so.6; before, libpthread.so.0): never the next definition in the
 * search order, which may be another copy of the runtime (preloaded), whose
 * pthread_create passes the call back here. */
static void *next_symbol(const char *name) {
  static const char *const libs[] = {"libc.so.6", "libpthread.so.0"};
  void *f = NULL;
  for (size_t i = 0; i < 2 && (!f || own(f)); i++) {
    void *lib = dlopen(libs[i], RTLD_LAZY | RTLD_NOLOAD);
    f = lib ? dlsym(lib, name) : NULL;
    if (lib)
      dlclose(lib);
  }
  if (!f || own(f)) {
    char why[128];
    md_format(why, sizeof(why), "cannot find the C library's %s", name);
    md_die(why);
  }
  return f;
}

static pthread_key_t exit_key;
static int ready; /* 0, 1 resolving, 2 ready */
static md_lock_t ready_lock = MD_LOCK_INIT;
static __thread struct trec *my_rec __attribute__((tls_model("initial-exec")));

static void on_exit_key(void *arg);

static void resolve(void) {
  if (MD_LIKELY(__atomic_load_n(&ready, __ATOMIC_ACQUIRE) == 2))
    return;
  md_lock(&ready_lock);
  if (ready != 2) {
    real.create = (create_fn)next_symbol("pthread_create");
    real.join = (join_fn)next_symbol("pthread_join");
    real.tryjoin = (tryjoin_fn)next_symbol("pthread_tryjoin_np");
    real.timedjoin = (timedjoin_fn)next_symbol("pthread_timedjoin_np");
    real.clockjoin = (clockjoin_fn)next_symbol("pthread_clockjoin_np");
    real.detach = (detach_fn)next_symbol("pthread_detach");
    pthread_key_create(&exit_key, on_exit_key);
    __atomic_store_n(&ready, 2, __ATOMIC_RELEASE);
  }
  md_unlock(&ready_lock);
}

/* ---- the thread's side ----------------------------------------------------- */

/* The block glibc mapped for this thread: pthread_getattr_np reports the
 * stack as the block less its guard (at the bottom); the TLS and the
 * descriptor at the top are inside what it reports. */
static bool stack_bounds(uintptr_t *lo, uintptr_t *hi, size_t *guard) {
  pthread_attr_t a;
  void *addr;
  size_t size, g = 0;
  if (pthread_getattr_np(pthread_self(), &a) != 0)
    return false;
  bool ok = pthread_attr_getstack(&a, &addr, &size) == 0;
  pthread_attr_getguardsize(&a, &g);
  pthread_attr_destroy(&a);
  if (!ok)
    return false;
  *lo = (uintptr_t)addr - g;
  *hi = (uintptr_t)addr + size;
  *guard = g;
  return true;
}

static void *trampoline(void *p) {
  struct trec *r = p;
  void *(*start)(void *) = r->start;
  /* From here the argument lives in this frame (a root). */
  void *arg = __atomic_exchange_n(&r->arg, NULL, __ATOMIC_ACQ_REL);
  uintptr_t lo = 0, hi = 0;
  size_t guard = 0;
  bool known = stack_bounds(&lo, &hi, &guard);
  uintptr_t key = (uintptr_t)pthread_self();
  struct shard *sh = &shards[shard_of(key)];
  md_lock(&sh->lock);
  r->key = key;
  r->lo = lo;
  r->hi = hi;
  r->guard = guard;
  if (known)
    r->state |= RUNNING;
  struct trec *stale = file(sh, r);
  md_unlock(&sh->lock);
  if (stale)
    free_rec(stale);
  my_rec = r;
  pthread_setspecific(exit_key, r);
  if (known)
    md_threshold_grew(hi - lo, true);
  return start(arg);
}

/* Thread exit (pthread_exit, return, cancellation): a detached thread's
 * stack is free from now on. */
static void on_exit_key(void *arg) {
  struct trec *r = arg;
  struct shard *sh = &shards[shard_of(r->key)];
  md_lock(&sh->lock);
  bool gone = false;
  if (r->state & FILED) {
    r->state |= EXITED;
    if (r->state & DETACHED) {
      unfile(sh, r);
      gone = true;
    }
  }
  md_unlock(&sh->lock);
  my_rec = NULL;
  if (gone)
    free_rec(r);
}

/* ---- the creator's side ----------------------------------------------------- */

static int create_impl(pthread_t *thread, const pthread_attr_t *attr,
                       void *(*start)(void *), void *arg, md_origin_t origin) {
  resolve();
  int detached = PTHREAD_CREATE_JOINABLE;
  bool own_stack = false;
  if (attr) {
    pthread_attr_getdetachstate(attr, &detached);
    /* glibc returns the top set by pthread_attr_setstack less the size, so
     * the top is 0 for an attr without a stack of its own (whatever its
     * stack size). (pthread_attr_getstackaddr would say it directly, but
     * every link of the runtime would then warn that it is deprecated.) */
    void *addr;
    size_t size;
    own_stack = pthread_attr_getstack(attr, &addr, &size) == 0 &&
                (uintptr_t)addr + size != 0;
  }
  struct trec *r = own_stack || !md_mmap_tracking() ? NULL : new_rec();
  if (!r)
    return real.create(thread, attr, start, arg);
  r->origin = origin;
  r->stack = md_backtrace_frames() ? md_backtrace_alloc(0) : 0;
  r->epoch = (uint8_t)md_fork_epoch;
  r->start = start;
  r->state = detached == PTHREAD_CREATE_DETACHED ? DETACHED : 0;
  __atomic_store_n(&r->arg, arg, __ATOMIC_RELEASE);
  pthread_t t;
  int err = real.create(&t, attr, trampoline, r);
  if (err) {
    free_rec(r);
    return err;
  }
  if (detached != PTHREAD_CREATE_DETACHED) {
    /* t stays valid until the join: file the record under it now, so a
     * join or detach before the thread runs finds it. */
    struct shard *sh = &shards[shard_of((uintptr_t)t)];
    md_lock(&sh->lock);
    r->key = (uintptr_t)t;
    struct trec *stale = file(sh, r);
    md_unlock(&sh->lock);
    if (stale)
      free_rec(stale);
  }
  *thread = t;
  return 0;
}

/* The record of thread t and its serial, or 0. */
static uint32_t serial_of(pthread_t t) {
  struct shard *sh = &shards[shard_of((uintptr_t)t)];
  md_lock(&sh->lock);
  struct trec *r = *find_slot(sh, (uintptr_t)t);
  uint32_t serial = r ? r->serial : 0;
  md_unlock(&sh->lock);
  return serial;
}

/* After a join: the stack is glibc's again. */
static void joined(pthread_t t, uint32_t serial) {
  if (!serial)
    return;
  struct shard *sh = &shards[shard_of((uintptr_t)t)];
  md_lock(&sh->lock);
  struct trec *r = *find_slot(sh, (uintptr_t)t);
  if (r && r->serial == serial)
    unfile(sh, r);
  else
    r = NULL;
  md_unlock(&sh->lock);
  if (r)
    free_rec(r);
}

#define SITE md_origin_site(site)
#define CALLER_PC __builtin_return_address(0)

MD_EXPORT int __mdebug_pthread_create(unsigned long *thread, const void *attr,
                                      void *(*start)(void *), void *arg,
                                      const struct mdebug_site *site) {
  if (MD_UNLIKELY(!md_copy_active())) {
    if (md_forward.site_pthread_create)
      return md_forward.site_pthread_create(thread, attr, start, arg, site);
    resolve();
    return real.create(thread, attr, start, arg);
  }
  return create_impl(thread, attr, start, arg, SITE);
}

MD_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*start)(void *), void *arg) {
  md_origin_t caller = md_origin_pc(CALLER_PC);
  if (own(CALLER_PC)) { /* the runtime's own threads are not accounted */
    resolve();
    return real.create(thread, attr, start, arg);
  }
  if (MD_UNLIKELY(!md_copy_active())) {
    if (md_forward.site_pthread_create)
      return md_forward.site_pthread_create(
          thread, attr, start, arg, (const struct mdebug_site *)caller);
    resolve();
    return real.create(thread, attr, start, arg);
  }
  return create_impl(thread, attr, start, arg, caller);
}

MD_EXPORT int pthread_join(pthread_t t, void **ret) {
  resolve();
  uint32_t serial = serial_of(t);
  int err = real.join(t, ret);
  if (!err)
    joined(t, serial);
  return err;
}

MD_EXPORT int pthread_tryjoin_np(pthread_t t, void **ret) {
  resolve();
  uint32_t serial = serial_of(t);
  int err = real.tryjoin(t, ret);
  if (!err)
    joined(t, serial);
  return err;
}

MD_EXPORT int pthread_timedjoin_np(pthread_t t, void **ret,
                                   const struct timespec *abstime) {
  resolve();
  uint32_t serial = serial_of(t);
  int err = real.timedjoin(t, ret, abstime);
  if (!err)
    joined(t, serial);
  return err;
}

MD_EXPORT int pthread_clockjoin_np(pthread_t t, void **ret, clockid_t clock,
                                   const struct timespec *abstime) {
  resolve();
  uint32_t serial = serial_of(t);
  int err = real.clockjoin(t, ret, clock, abstime);
  if (!err)
    joined(t, serial);
  return err;
}

/* Noted before glibc's detach: after it, t may already name another
 * thread (an exited thread's stack is freed by the detach). */
MD_EXPORT int pthread_detach(pthread_t t) {
  resolve();
  struct shard *sh = &shards[shard_of((uintptr_t)t)];
  md_lock(&sh->lock);
  struct trec *r = *find_slot(sh, (uintptr_t)t);
  if (r) {
    r->state |= DETACHED;
    if (r->state & EXITED)
      unfile(sh, r);
    else
      r = NULL;
  }
  md_unlock(&sh->lock);
  if (r)
    free_rec(r);
  return real.detach(t);
}

/* ---- reading ----------------------------------------------------------------- */

size_t md_threads_collect(struct md_thread_stack *out, size_t cap) {
  size_t n = 0;
  for (unsigned i = 0; i < SHARDS; i++) {
    struct shard *sh = &shards[i];
    md_lock(&sh->lock);
    for (const struct trec *r = sh->list; r; r = r->next) {
      if (!(r->state & RUNNING))
        continue;
      if (n < cap)
        out[n] = (struct md_thread_stack){r->lo, r->hi, r->guard, r->origin,
                                          r->stack, (r->state & EXITED) != 0};
      n++;
    }
    md_unlock(&sh->lock);
  }
  return n;
}

void md_threads_roots(void (*visit)(const struct md_region *r, void *arg),
                      void *arg) {
  for (struct slab *s = __atomic_load_n(&slabs, __ATOMIC_ACQUIRE); s;
       s = s->next)
    for (size_t i = 0; i < s->count; i++) {
      struct trec *r = &s->recs[i];
      if (!__atomic_load_n(&r->arg, __ATOMIC_RELAXED))
        continue;
      struct md_region region = {(uintptr_t)&r->arg,
                                 (uintptr_t)(&r->arg + 1), "thread argument",
                                 0};
      visit(&region, arg);
    }
}

/* ---- fork: only the forking thread lives on in the child ------------------ */

void md_threads_atfork_prepare(void) {
  md_lock(&slab_lock);
  for (unsigned i = 0; i < SHARDS; i++)
    md_lock(&shards[i].lock);
}
void md_threads_atfork_parent(void) {
  for (unsigned i = SHARDS; i-- > 0;)
    md_unlock(&shards[i].lock);
  md_unlock(&slab_lock);
}
/* glibc takes the other threads' stacks back into its cache: their records
 * go (to the free list, without the lock nobody else can want). */
void md_threads_atfork_child(void) {
  for (unsigned i = 0; i < SHARDS; i++) {
    struct shard *sh = &shards[i];
    md_lock_reset(&sh->lock);
    struct trec **p = &sh->list;
    while (*p) {
      struct trec *r = *p;
      if (r == my_rec) {
        p = &r->next;
        continue;
      }
      *p = r->next;
      r->state = 0;
      r->arg = NULL;
      r->in_use = false;
      r->next = spare;
      spare = r;
    }
  }
  md_lock_reset(&slab_lock);
  md_lock_reset(&ready_lock); /* a resolve cut short is done again */
}
