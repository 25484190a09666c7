// Proves: md_world_stop stops every other thread (allocating, spinning,
// blocked in read, sleeping, holding a value only in a register), and
// md_world_roots reports each one's stack, registers and TLS, the module
// segments and the registered regions, all readable; every thread carries
// on unharmed (counters advance, errno and registers intact), over repeated
// and concurrent stops, with threads coming and going, and from an atexit
// handler; a thread that blocks every signal is stopped too (ptrace). The
// same again with ptrace forbidden (the signal fallback), where a thread
// that blocks the stop signal makes the stop fail cleanly: false after the
// timeout, naming the thread and why ptrace was not used, everyone resumed,
// the process alive, the blocker never sent the signal. Last: once the main
// thread has called pthread_exit (a zombie, still listed), another thread's
// stops skip it at once and still see everything.
// RUN: %clang -O1 -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared -I%mdebug_include -I%S/../Inputs %s %mdebug_rt_a -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s
// RUN: %t noptrace 2>&1 | %FileCheck %s
// CHECK: mdebug: mdebug_unregister_root(0x{{[0-9a-f]+}}, 1): no such region was registered
// CHECK-NEXT: world_test: {{[0-9]+}} passed, 0 failed
// CHECK-NEXT: world_test: atexit stop: {{[0-9]+}} passed, 0 failed
// RUN: %t blocked 2>&1 | %FileCheck %s --check-prefix=BLOCKED
// BLOCKED-NOT: stop failed
// BLOCKED: world_test blocked: {{[0-9]+}} passed, 0 failed
// RUN: %t blocked noptrace 2>&1 | %FileCheck %s --check-prefix=BLOCKED-NOPTRACE
// BLOCKED-NOPTRACE: stop failed: could not stop the other threads: thread {{[0-9]+}}: it blocks the stop signal; ptrace not used: ptrace refused to attach (errno 1)
// BLOCKED-NOPTRACE-NEXT: world_test blocked: {{[0-9]+}} passed, 0 failed
// RUN: %t main_exit 2>&1 | %FileCheck %s --check-prefix=MAIN-EXIT
// MAIN-EXIT-NOT: mdebug
// MAIN-EXIT: world_test main_exit: {{[0-9]+}} passed, 0 failed
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "no_ptrace.h"
#include "roots.h"
#include "stop.h"

#include "expect.h"

enum kind { ALLOC, ERRNO, READER, SLEEPER, REGISTER, KINDS };
static const int per_kind[KINDS] = {3, 1, 2, 1, 1};
enum { MAX_THREADS = 16, MAX_REGIONS = 8192 };

struct thread {
  enum kind kind;
  pthread_t handle;
  int tid;
  uintptr_t stack_var, tls_var; /* addresses of its local and its __thread */
  volatile long counter;
  int pipe[2];         /* READER: a byte per round, 'q' to quit */
  long bad;            /* errno changed, register changed, bad read */
  uintptr_t reg_value; /* REGISTER: held in r12 while it spins */
};
static struct thread threads[MAX_THREADS];
static int thread_count;
static volatile int quit, reg_quit;
static __thread int tls_var = 1;
int global_data = 42; /* .data */
int global_bss;       /* .bss */
static char registered_area[256];

static int gettid_(void) { return (int)syscall(SYS_gettid); }

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void publish(struct thread *t, volatile int *local) {
  t->tid = gettid_();
  t->tls_var = (uintptr_t)&tls_var;
  t->stack_var = (uintptr_t)local;
  __atomic_store_n(&t->counter, 1, __ATOMIC_RELEASE);
}

static void *thread_main(void *arg) {
  struct thread *t = arg;
  volatile int local = 7; /* its address is the stack variable */
  unsigned seed = (unsigned)(t - threads) * 2654435761u + 1;
  switch (t->kind) {
  case ALLOC:
    publish(t, &local);
    while (!quit) {
      seed = seed * 1103515245u + 12345u;
      size_t n = 1 + (seed >> 16) % 300;
      char *p = malloc(n);
      p[0] = p[n - 1] = 1;
      free(p);
      t->counter++;
    }
    break;
  case ERRNO: {
    volatile int *e = &errno;
    *e = 4242;
    publish(t, &local);
    while (!quit) {
      if (*e != 4242)
        t->bad++;
      t->counter++;
    }
    break;
  }
  case READER:
    publish(t, &local);
    for (;;) {
      char c = 0;
      ssize_t r = read(t->pipe[0], &c, 1); /* SA_RESTART: never EINTR */
      if (r != 1 || (c != 'x' && c != 'q'))
        t->bad++;
      if (r != 1 || c == 'q')
        break;
      t->counter++;
    }
    break;
  case SLEEPER:
    publish(t, &local);
    while (!quit) {
      struct timespec ts = {0, 1000000};
      nanosleep(&ts, NULL); /* EINTR when stopped: fine */
      t->counter++;
    }
    break;
  case REGISTER: {
    void *p = malloc(64);
    uintptr_t out;
    t->reg_value = (uintptr_t)p;
    publish(t, &local);
    __asm__ volatile("mov %[v], %%r12\n"
                     "1: incq %[cnt]\n"
                     "pause\n"
                     "cmpl $0, %[stop]\n"
                     "je 1b\n"
                     "mov %%r12, %[out]\n"
                     : [out] "=r"(out), [cnt] "+m"(t->counter)
                     : [v] "r"(t->reg_value), [stop] "m"(reg_quit)
                     : "r12", "memory", "cc");
    if (out != t->reg_value)
      t->bad++;
    free(p);
    break;
  }
  default:
    break;
  }
  return NULL;
}

static void start_threads(void) {
  for (int k = 0; k < KINDS; k++)
    for (int i = 0; i < per_kind[k]; i++) {
      struct thread *t = &threads[thread_count++];
      t->kind = (enum kind)k;
      if (k == READER && pipe(t->pipe) != 0)
        abort();
      pthread_create(&t->handle, NULL, thread_main, t);
    }
  for (int i = 0; i < thread_count; i++)
    while (!__atomic_load_n(&threads[i].counter, __ATOMIC_ACQUIRE))
      sched_yield();
  struct timespec ts = {0, 20000000}; /* let the spinners reach their loops */
  nanosleep(&ts, NULL);
}

static void stop_threads(void) {
  quit = 1;
  reg_quit = 1;
  for (int i = 0; i < thread_count; i++)
    if (threads[i].kind == READER && write(threads[i].pipe[1], "q", 1) != 1)
      abort();
  for (int i = 0; i < thread_count; i++)
    pthread_join(threads[i].handle, NULL);
}

/* ---- what a callback records (no allocation, no stdio inside) ------------ */
struct record {
  struct md_region regions[MAX_REGIONS];
  int count;
  bool overflow;
  bool called;
  bool frozen;    /* no counter moved while stopped */
  bool reg_found; /* REGISTER's value was in its registers region */
  uintptr_t sum;  /* every word of every region read: none faults */
  long wait_ns;   /* how long to watch the counters */
};
static struct record rec;

static void visit(const struct md_region *r, void *arg) {
  struct record *x = arg;
  if (x->count < MAX_REGIONS)
    x->regions[x->count++] = *r;
  else
    x->overflow = true;
}

static void record_cb(void *arg) {
  struct record *x = arg;
  long before[MAX_THREADS];
  x->called = true;
  for (int i = 0; i < thread_count; i++)
    before[i] = threads[i].counter;
  md_world_roots(visit, x);
  for (int i = 0; i < x->count; i++) {
    const struct md_region *r = &x->regions[i];
    for (uintptr_t a = (r->begin + 7) & ~(uintptr_t)7; a + 8 <= r->end; a += 8)
      x->sum += *(volatile uintptr_t *)a;
    for (int j = 0; j < thread_count; j++)
      if (threads[j].kind == REGISTER && r->tid == threads[j].tid &&
          strcmp(r->kind, "registers") == 0)
        for (uintptr_t a = r->begin; a + 8 <= r->end; a += 8)
          if (*(uintptr_t *)a == threads[j].reg_value)
            x->reg_found = true;
  }
  for (long long end = now_ns() + x->wait_ns; now_ns() < end;)
    ;
  x->frozen = true;
  for (int i = 0; i < thread_count; i++)
    if (threads[i].counter != before[i])
      x->frozen = false;
}

static bool stop_and_record(long wait_ns) {
  memset(&rec, 0, sizeof(rec));
  rec.wait_ns = wait_ns;
  return md_world_stop(record_cb, &rec);
}

static const struct md_region *find(const char *kind, int tid, uintptr_t addr) {
  for (int i = 0; i < rec.count; i++) {
    const struct md_region *r = &rec.regions[i];
    if (strcmp(r->kind, kind) == 0 && (tid < 0 || r->tid == tid) &&
        r->begin <= addr && addr < r->end)
      return r;
  }
  return NULL;
}

static int count_kind(const char *kind, int tid) {
  int n = 0;
  for (int i = 0; i < rec.count; i++)
    n += strcmp(rec.regions[i].kind, kind) == 0 && rec.regions[i].tid == tid;
  return n;
}

/* Every thread's counter moves within 2 s (readers get a byte each). */
static bool all_advance(void) {
  long before[MAX_THREADS];
  for (int i = 0; i < thread_count; i++) {
    before[i] = threads[i].counter;
    if (threads[i].kind == READER && write(threads[i].pipe[1], "x", 1) != 1)
      return false;
  }
  for (long long end = now_ns() + 2000000000ll; now_ns() < end;) {
    int moved = 0;
    for (int i = 0; i < thread_count; i++)
      moved += threads[i].counter != before[i];
    if (moved == thread_count)
      return true;
    sched_yield();
  }
  for (int i = 0; i < thread_count; i++)
    if (threads[i].counter == before[i])
      printf("thread %d (kind %d) did not carry on\n", threads[i].tid,
             threads[i].kind);
  return false;
}

/* The full check of one stop, from the calling thread's point of view. */
static void check_roots(int self, uintptr_t self_stack_var, bool registered) {
  EXPECT(rec.called && !rec.overflow);
  EXPECT(rec.frozen);
  EXPECT(rec.reg_found);
  for (int i = 0; i < thread_count; i++) {
    struct thread *t = &threads[i];
    EXPECT(find("stack", t->tid, t->stack_var) != NULL);
    EXPECT(find("tls", t->tid, t->tls_var) != NULL);
    EXPECT(count_kind("registers", t->tid) == 1);
  }
  EXPECT(find("stack", self, self_stack_var) != NULL);
  EXPECT(find("tls", self, (uintptr_t)&tls_var) != NULL);
  EXPECT(count_kind("registers", self) == 1);
  EXPECT(find("module", 0, (uintptr_t)&global_data) != NULL);
  EXPECT(find("module", 0, (uintptr_t)&global_bss) != NULL);
  const struct md_region *r = find("registered", 0, (uintptr_t)registered_area);
  if (registered)
    EXPECT(r && r->begin == (uintptr_t)registered_area &&
           r->end == (uintptr_t)registered_area + sizeof(registered_area));
  else
    EXPECT(r == NULL);
  /* A stack never reaches into another thread's: one tid per stack. */
  for (int i = 0; i < thread_count; i++) {
    const struct md_region *s = find("stack", -1, threads[i].stack_var);
    EXPECT(s && s->tid == threads[i].tid);
  }
}

/* ---- threads that come and go, and stops from several threads -------------
 */
static volatile int churn_quit;
static long churned;

static void *short_lived(void *arg) {
  volatile int x = 1;
  (void)x;
  return arg;
}

/* Joined and detached threads. A detached thread ends inside glibc with
 * every signal blocked, waiting for the stack cache lock, which a stopped
 * thread (one in pthread_create, say) may hold: it can never answer. */
static void *churn_main(void *arg) {
  pthread_attr_t detached;
  pthread_attr_init(&detached);
  pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
  while (!churn_quit) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
      pthread_create(&t[i], i % 2 ? &detached : NULL, short_lived, NULL);
    for (int i = 0; i < 4; i += 2)
      pthread_join(t[i], NULL);
    __atomic_add_fetch(&churned, 4, __ATOMIC_RELAXED);
  }
  pthread_attr_destroy(&detached);
  return arg;
}

struct stopper {
  pthread_t handle;
  int ok, calls, self_found;
};

struct stopper_cb {
  int self;
  uintptr_t stack_var;
  int called, found;
};

static void stopper_visit(const struct md_region *r, void *arg) {
  struct stopper_cb *c = arg;
  if (strcmp(r->kind, "stack") == 0 && r->tid == c->self &&
      r->begin <= c->stack_var && c->stack_var < r->end)
    c->found = 1;
}

static void stopper_fn(void *arg) {
  struct stopper_cb *c = arg;
  c->called++;
  md_world_roots(stopper_visit, c);
}

static void *stopper_main(void *arg) {
  struct stopper *s = arg;
  volatile int local = 0;
  for (int i = 0; i < 10; i++) {
    struct stopper_cb c = {gettid_(), (uintptr_t)&local, 0, 0};
    s->ok += md_world_stop(stopper_fn, &c);
    s->calls += c.called;
    s->self_found += c.found;
  }
  return NULL;
}

/* ---- outside a stop: nothing -----------------------------------------------
 */
static int visits_outside;
static void count_visit(const struct md_region *r, void *arg) {
  visits_outside++;
}

/* ---- the atexit check ------------------------------------------------------
 */
static void at_exit_check(void) {
  volatile int local = 0;
  passed = failed = 0;
  EXPECT(stop_and_record(20000000));
  check_roots(gettid_(), (uintptr_t)&local, false);
  EXPECT(all_advance());
  stop_threads();
  for (int i = 0; i < thread_count; i++)
    EXPECT(threads[i].bad == 0);
  printf("world_test: atexit stop: %d passed, %d failed\n", passed, failed);
}

/* ---- the failure path
 * -------------------------------------------------------- */
static volatile int blocker_ready, blocker_quit, blocker_got_signal;
static void on_stop_signal(int sig) { blocker_got_signal = sig; }
static void *blocker_main(void *arg) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  blocker_ready = 1;
  while (!blocker_quit) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  /* Nothing was sent to it: unblocking finds no signal pending. */
  pthread_sigmask(SIG_UNBLOCK, &all, NULL);
  return arg;
}

static int blocked_main(bool ptrace_forbidden) {
  start_threads();
  /* The program's own handler for the stop signal: never called for ours. */
  signal(SIGRTMAX - 13, on_stop_signal);
  pthread_t blocker;
  pthread_create(&blocker, NULL, blocker_main, NULL);
  while (!blocker_ready)
    sched_yield();
  long long t0 = now_ns();
  fflush(stdout);
  if (ptrace_forbidden) {
    EXPECT(!stop_and_record(0));
    long long took = now_ns() - t0;
    printf("stop failed: %s\n", md_world_stop_failure());
    EXPECT(!rec.called);
    EXPECT(took >= 4500000000ll && took < 8000000000ll);
  } else {
    volatile int here = 0;
    EXPECT(stop_and_record(1000000));
    check_roots(gettid_(), (uintptr_t)&here, false);
  }
  EXPECT(all_advance()); /* everyone who had stopped was resumed */
  blocker_quit = 1;
  pthread_join(blocker, NULL);
  EXPECT(blocker_got_signal == 0);
  /* The blocker is gone: stopping works again. */
  volatile int local = 0;
  EXPECT(stop_and_record(1000000));
  check_roots(gettid_(), (uintptr_t)&local, false);
  EXPECT(all_advance());
  stop_threads();
  for (int i = 0; i < thread_count; i++)
    EXPECT(threads[i].bad == 0);
  printf("world_test blocked: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}

/* ---- a main thread that called pthread_exit: a zombie, still listed ----- */
static int main_tid;
static void *after_main(void *arg) {
  volatile int local = 0;
  /* Wait until the main thread is a zombie. */
  char path[64], buf[512];
  snprintf(path, sizeof(path), "/proc/self/task/%d/stat", main_tid);
  for (long long end = now_ns() + 2000000000ll; now_ns() < end;) {
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f)
      fclose(f);
    buf[n] = '\0';
    char *paren = strrchr(buf, ')');
    if (paren && paren[2] == 'Z')
      break;
    sched_yield();
  }
  for (int i = 0; i < 3; i++) {
    long long t0 = now_ns();
    EXPECT(stop_and_record(0));
    EXPECT(now_ns() - t0 < 1000000000ll); /* not a timeout */
    check_roots(gettid_(), (uintptr_t)&local, false);
    EXPECT(count_kind("stack", main_tid) == 0);
    EXPECT(count_kind("registers", main_tid) == 0);
  }
  EXPECT(all_advance());
  stop_threads();
  for (int i = 0; i < thread_count; i++)
    EXPECT(threads[i].bad == 0);
  printf("world_test main_exit: %d passed, %d failed\n", passed, failed);
  exit(failed != 0);
  return arg;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); /* keep our lines in order with md_log's */
  bool noptrace = argc > 1 && strcmp(argv[argc - 1], "noptrace") == 0;
  if (noptrace)
    forbid_ptrace();
  if (argc > 1 && strcmp(argv[1], "blocked") == 0)
    return blocked_main(noptrace);
  if (argc > 1 && strcmp(argv[1], "main_exit") == 0) {
    main_tid = gettid_();
    start_threads();
    pthread_t t;
    pthread_create(&t, NULL, after_main, NULL);
    pthread_exit(NULL);
  }

  volatile int local = 0;
  int self = gettid_();
  global_bss = 1;

  /* Single-threaded: the caller alone. */
  EXPECT(stop_and_record(0));
  EXPECT(rec.called && find("stack", self, (uintptr_t)&local) != NULL);
  md_world_roots(count_visit, NULL);
  EXPECT(visits_outside == 0);

  start_threads();
  md_world_register_root(registered_area, sizeof(registered_area));

  /* Stop 1: everything is there, nobody moves; then everybody moves. */
  EXPECT(stop_and_record(30000000));
  check_roots(self, (uintptr_t)&local, true);
  EXPECT(all_advance());

  /* Stops 2 and 3: the region is gone after unregistering, and again. */
  md_world_unregister_root(registered_area, sizeof(registered_area));
  EXPECT(stop_and_record(5000000));
  check_roots(self, (uintptr_t)&local, false);
  EXPECT(all_advance());
  EXPECT(stop_and_record(5000000));
  check_roots(self, (uintptr_t)&local, false);
  EXPECT(all_advance());

  /* Threads created and exiting throughout, and two other threads stopping
   * the world concurrently with this one. */
  pthread_t churn;
  pthread_create(&churn, NULL, churn_main, NULL);
  while (__atomic_load_n(&churned, __ATOMIC_RELAXED) == 0)
    sched_yield();
  struct stopper stoppers[2] = {0};
  for (int i = 0; i < 2; i++)
    pthread_create(&stoppers[i].handle, NULL, stopper_main, &stoppers[i]);
  int ok = 0;
  for (int i = 0; i < 30; i++) {
    ok += stop_and_record(0);
    EXPECT(rec.called && rec.frozen && !rec.overflow);
    for (int j = 0; j < thread_count; j++)
      EXPECT(find("stack", threads[j].tid, threads[j].stack_var) != NULL);
  }
  EXPECT(ok == 30);
  for (int i = 0; i < 2; i++) {
    pthread_join(stoppers[i].handle, NULL);
    EXPECT(stoppers[i].ok == 10 && stoppers[i].calls == 10 &&
           stoppers[i].self_found == 10);
  }
  churn_quit = 1;
  pthread_join(churn, NULL);
  EXPECT(all_advance());

  /* Unregistering what was never registered is reported, not fatal. */
  md_world_unregister_root(registered_area, 1);

  for (int i = 0; i < thread_count; i++)
    EXPECT(threads[i].bad == 0);
  printf("world_test: %d passed, %d failed\n", passed, failed);
  /* The threads keep running into exit; the handler stops them there. */
  atexit(at_exit_check);
  return failed != 0;
}
