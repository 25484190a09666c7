/* snapshot.c - the process's heap profile, PREFIX.PID.mdprof
 * (docs/profile-format.md): what goes into it and when.
 *
 * A snapshot (mdebug_snapshot("label"), SIGRTMAX-14, every
 * snapshot_interval seconds, and at exit) appends, as one batch: the sites
 * and stacks not described yet (S, K, N, M records), the frees of tracked
 * blocks queued since the last one (F), the exact per-site totals of
 * counters.c (T and C), the tracking rules and what the cap cost (L), and
 * the live tracked blocks with their allocation times (A and B). Between
 * snapshots, a profiler thread writes the queued frees every 100 ms (so the
 * queue, sample.c, rarely fills) and follows each site's peak. The file is
 * created on first use with md_out_open's rules; a process that forks
 * writes its own file from the child on. Profiling is on when any profile
 * option is set; without one, a call of mdebug_snapshot() still writes the
 * totals.
 *
 * Runs in the caller's thread, the signal service thread, the profiler
 * thread or the exit handler, one at a time (one lock), never inside an
 * allocation. Never allocates through malloc: everything it keeps is
 * mmap'ed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "base.h"
#include "init.h"
#include "lock.h"
#include "log.h"
#include "mdebug/site.h"
#include "options.h"
#include "origin.h"
#include "outfile.h"
#include "platform.h"
#include "print.h"
#include "profile.h"
#include "profile_format.h"
#include "profiler.h"
#include "record.h"
#include "scan_contract.h"
#include "site.h"
#include "stacks.h"
#include "track.h"

#define DEFAULT_PREFIX "/tmp/mdebug_profile"
#define TICK_NS 100000000ull /* the profiler thread wakes this often */
#define MAX_MODULES 512
#define STACK_ID_BITS 27 /* depot ids are offsets / 8 in a 1 GiB arena */
#define SITE_ID_NONE 0

static md_lock_t lock = MD_LOCK_INIT;
static bool wanted;  /* a profile option is set */
static bool ended;   /* closed at exit: nothing more is written */
static bool failed;  /* the file could not be created: said once */
static int failed_errno;
static bool is_open;
static int open_pid; /* the process the open file belongs to */
static uint64_t start_ns, start_unix_ns;
static struct md_profile prof;

/* What the open file has described already. */
static bool site0_written;      /* origin id 0: ids ran out */
static uint32_t sites_written;  /* origin ids 1..sites_written */
static uint64_t *site_ids;      /* by origin id, once written */
static uint64_t *peaks;         /* highest live bytes seen, by origin id */
static uint64_t *stacks_written; /* a bit per depot id */
/* Frames seen in written stacks, by pc: their module index and offset
 * (symbolizing a frame costs a dladdr and a symbol search; frames repeat
 * across stacks), an open-addressing table. The file named each one (N)
 * the first time it was seen, if it has a name. */
struct frame_entry {
  uintptr_t pc; /* 0: empty */
  uint32_t module;
  uint64_t offset;
};
static struct frame_entry *frames_seen;
static size_t frames_cap, frames_count;
static char (*modules)[MD_PATH_MAX];
static uint32_t module_count;
static bool limits_tracking;    /* the L record last written */
static uint64_t limits_missed, limits_lost;
static bool limits_written;
static uint64_t toggles_written; /* tracking switches written as L records */

static struct md_sample_freed *freed_buf; /* a drain's frees */
static size_t freed_cap;

static uint64_t now_ns(void) { return md_record_now(); }

/* ---- names: modules, sites, frames ---------------------------------------- */

static uint32_t module_index(const char *path) {
  for (uint32_t i = 0; i < module_count; i++)
    if (strcmp(modules[i], path) == 0)
      return i;
  if (module_count == MAX_MODULES)
    return MAX_MODULES - 1; /* more modules than that: they share the last */
  uint32_t i = module_count++;
  md_format(modules[i], MD_PATH_MAX, "%s", path);
  md_profile_module(&prof, i, modules[i]);
  return i;
}

/* FNV-1a 64, as site ids are (pass/SiteHash.h), over a pc origin's
 * module path and offset: the same in every run of the same binary. */
static uint64_t pc_site_id(const char *module, uint64_t offset) {
  uint64_t h = MDEBUG_FNV_OFFSET;
  for (const char *c = module; *c; c++)
    h = (h ^ (unsigned char)*c) * MDEBUG_FNV_PRIME;
  h = (h ^ 0) * MDEBUG_FNV_PRIME;
  for (int i = 0; i < 8; i++)
    h = (h ^ ((offset >> (8 * i)) & 0xff)) * MDEBUG_FNV_PRIME;
  return h;
}

MD_COLD static void write_site(uint32_t id) {
  md_origin_t o = md_origin_of(id);
  struct md_profile_site s;
  memset(&s, 0, sizeof(s));
  s.module = -1;
  if (!o) {
    s.function = "<unknown>"; /* ids ran out: md_origin_id gave 0 */
    s.id = SITE_ID_NONE;
  } else if (!md_origin_is_pc(o)) {
    const struct mdebug_site *d = (const struct mdebug_site *)o;
    s.id = d->id;
    s.op = md_op_name(d->op);
    s.file = d->file;
    s.function = d->function;
    s.type = d->type;
    s.line = d->line;
    s.column = d->column;
  } else {
    /* A return address: named by the call instruction (pc - 1). */
    struct md_symbol sym;
    uintptr_t pc = (o & ~MD_ORIGIN_PC_BIT) - 1;
    if (md_symbolize(pc, &sym) && sym.module) {
      s.module = (int32_t)module_index(sym.module);
      s.offset = sym.rel_pc;
      s.function = sym.function;
      s.id = pc_site_id(sym.module, sym.rel_pc);
    } else {
      s.offset = pc;
      s.id = pc_site_id("", pc);
    }
  }
  site_ids[id] = s.id;
  md_profile_site(&prof, &s);
}

/* Every origin id up to the current count gets its S record. */
static void write_new_sites(void) {
  uint32_t count = (uint32_t)md_origin_count();
  while (sites_written < count)
    write_site(++sites_written);
}

/* The site id of an origin id whose S record is written (id 0, which
 * md_origin_id gives when ids ran out, is described when first named). */
static uint64_t site_id(uint32_t origin_id) {
  if (!origin_id && !site0_written) {
    write_site(0);
    site0_written = true;
  }
  return origin_id <= sites_written ? site_ids[origin_id] : SITE_ID_NONE;
}

static size_t frame_slot(const struct frame_entry *t, size_t cap,
                         uintptr_t pc) {
  size_t k = (pc * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
  while (t[k].pc && t[k].pc != pc)
    k = (k + 1) & (cap - 1);
  return k;
}

/* The module index and offset of frame pc, symbolized (and named in the
 * file) the first time. */
static struct md_profile_frame frame_of(uintptr_t pc) {
  if (frames_count * 2 >= frames_cap) {
    size_t cap = frames_cap ? frames_cap * 2 : 4096;
    struct frame_entry *bigger = md_mmap(cap * sizeof(*bigger));
    if (bigger) {
      for (size_t i = 0; i < frames_cap; i++)
        if (frames_seen[i].pc)
          bigger[frame_slot(bigger, cap, frames_seen[i].pc)] = frames_seen[i];
      md_munmap(frames_seen, frames_cap * sizeof(*frames_seen));
      frames_seen = bigger;
      frames_cap = cap;
    }
  }
  size_t k = frames_cap ? frame_slot(frames_seen, frames_cap, pc) : 0;
  if (frames_cap && frames_seen[k].pc == pc)
    return (struct md_profile_frame){frames_seen[k].module,
                                     frames_seen[k].offset};
  struct md_symbol sym;
  struct md_profile_frame f = {MAX_MODULES, pc}; /* no module: "?" */
  if (md_symbolize(pc, &sym) && sym.module) {
    f.module = module_index(sym.module);
    f.offset = sym.rel_pc;
    if (sym.function)
      md_profile_symbol(&prof, f.module, sym.rel_pc, sym.function,
                        sym.offset);
  }
  if (frames_cap && frames_count * 2 < frames_cap) { /* else: no memory */
    frames_seen[k] = (struct frame_entry){pc, f.module, f.offset};
    frames_count++;
  }
  return f;
}

MD_COLD static void write_stack(uint32_t id) {
  if (id <= MD_STACK_EMPTY || id >> STACK_ID_BITS || !stacks_written)
    return;
  uint64_t *word = &stacks_written[id >> 6], bit = 1ull << (id & 63);
  if (*word & bit)
    return;
  *word |= bit;
  size_t n;
  const uintptr_t *pcs = md_depot_get(id, &n);
  struct md_profile_frame frames[MD_PROFILE_FRAMES_MAX];
  if (n > MD_PROFILE_FRAMES_MAX)
    n = MD_PROFILE_FRAMES_MAX;
  for (size_t i = 0; i < n; i++)
    frames[i] = frame_of(pcs[i]);
  md_profile_stack(&prof, id, frames, n);
}

/* ---- the file ------------------------------------------------------------- */

static bool map_tables(void) {
  if (site_ids)
    return true;
  site_ids = md_mmap(MD_ORIGIN_MAX * sizeof(*site_ids));
  peaks = md_mmap(MD_ORIGIN_MAX * sizeof(*peaks));
  stacks_written = md_mmap(((size_t)1 << STACK_ID_BITS) / 8);
  modules = md_mmap(MAX_MODULES * sizeof(*modules));
  if (!site_ids || !peaks || !stacks_written || !modules)
    return false;
  return true;
}

/* An L record when a figure changed; `start`: the rules as they were at
 * start-up (nothing missed or lost yet), for a file just created. Each
 * switch of tracking since the last call gets one, at its own time. */
MD_COLD static void write_limits(uint64_t time, bool start) {
  struct md_sample_params sp;
  md_sample_params(&sp);
  if (!md_sample_configured())
    return;
  if (!start) {
    uint64_t k = toggles_written, when;
    bool on;
    for (; k < md_sample_toggles(); k++)
      if (md_sample_toggle_at(k, &when, &on)) {
        struct md_profile_limits l = {when,           on,
                                      sp.min_size,    sp.always_above,
                                      sp.max_tracked, limits_missed,
                                      limits_lost};
        md_profile_limits(&prof, &l);
        limits_tracking = on;
      }
    toggles_written = k;
  }
  if (start) {
    sp.tracking = !md_opt.track_enable_on_signal;
    sp.missed = sp.dropped = 0;
  } else if (limits_written && sp.tracking == limits_tracking &&
             sp.missed == limits_missed && sp.dropped == limits_lost) {
    return;
  }
  struct md_profile_limits l = {time,           sp.tracking,    sp.min_size,
                                sp.always_above, sp.max_tracked, sp.missed,
                                sp.dropped};
  md_profile_limits(&prof, &l);
  limits_written = true;
  limits_tracking = sp.tracking;
  limits_missed = sp.missed;
  limits_lost = sp.dropped;
}

/* The file for this process, created on first use; false if there is
 * none (said once). Called with the lock held. */
MD_COLD static bool ensure_open(void) {
  int pid = md_getpid();
  if (is_open && open_pid == pid)
    return true;
  if (ended || failed)
    return false;
  char path[MD_PATH_MAX + 32];
  const char *prefix =
      md_opt.profile_prefix[0] ? md_opt.profile_prefix : DEFAULT_PREFIX;
  md_profile_path(path, sizeof(path), prefix, pid);
  if (!map_tables()) {
    md_log("mdebug: not enough memory for the heap profile %s", path);
    failed = true;
    failed_errno = ENOMEM;
    return false;
  }
  const char *options = md_getenv("MDEBUG_OPTIONS");
  struct md_profile_header h = {pid, md_progname(),
                                md_secure() || !options ? "" : options,
                                start_ns, start_unix_ns};
  if (!md_profile_open(&prof, path, &h)) {
    failed_errno = errno;
    if (prof.out.refusal[0])
      md_log("mdebug: %s", prof.out.refusal);
    else
      md_log("mdebug: cannot write the heap profile %s: %s", path,
             strerror(errno));
    failed = true;
    return false;
  }
  is_open = true;
  open_pid = pid;
  md_profile_batch(&prof, true);
  struct md_sample_params sp;
  md_sample_params(&sp);
  /* In force since start-up (a later file of a forked child: since the
   * fork, which the reader cannot tell apart). */
  md_profile_sampling(&prof, start_ns, sp.rate ? sp.rate : 1, sp.bytes);
  write_limits(start_ns, true);
  md_profile_batch(&prof, false);
  if (md_opt.verbose)
    md_log("mdebug: writing the heap profile to %s", path);
  return true;
}

/* ---- double frees -------------------------------------------------------- */

/* The double frees alloc.c reported since the last write, as X records: a
 * ring of its own (rare events, each one reported on stderr too), under a
 * lock of its own so that the report never waits for a snapshot being
 * written. Those beyond its size are counted and said once. */
#define DOUBLE_FREES 256
struct double_free {
  uint64_t time, addr, size;
  uint32_t alloc_id, free_id, second_id, stack, tid;
};
static struct double_free doubles[DOUBLE_FREES];
static uint32_t doubles_n;
static uint64_t doubles_lost;
static md_lock_t doubles_lock = MD_LOCK_INIT;

MD_COLD void md_snapshot_double_free(const struct md_block *b,
                                     md_origin_t second) {
  if (!wanted)
    return;
  struct double_free d = {
      .time = md_record_now(),
      .addr = (uintptr_t)b->user,
      .size = b->size,
      .alloc_id = b->meta->alloc_origin,
      .free_id = b->meta->free_origin,
      .second_id = md_origin_id(second),
      .stack = MD_STACK_EMPTY,
      .tid = (uint32_t)md_gettid(),
  };
  if (md_backtrace_enabled()) {
    uintptr_t pcs[MD_PROFILE_FRAMES_MAX];
    d.stack = md_depot_put(pcs, md_unwind(pcs, MD_PROFILE_FRAMES_MAX));
  }
  md_lock(&doubles_lock);
  if (doubles_n < DOUBLE_FREES)
    doubles[doubles_n++] = d;
  else
    doubles_lost++;
  md_unlock(&doubles_lock);
}

/* Lock held, file open. */
MD_COLD static void write_double_frees(void) {
  struct double_free taken[DOUBLE_FREES];
  md_lock(&doubles_lock);
  uint32_t n = doubles_n;
  for (uint32_t i = 0; i < n; i++)
    taken[i] = doubles[i];
  doubles_n = 0;
  uint64_t lost = doubles_lost;
  doubles_lost = 0;
  md_unlock(&doubles_lock);
  if (lost)
    md_log("mdebug: %llu double frees were not written to the profile (more "
           "than %d between two writes)",
           (unsigned long long)lost, DOUBLE_FREES);
  if (!n)
    return;
  write_new_sites();
  for (uint32_t i = 0; i < n; i++) {
    write_stack(taken[i].stack);
    struct md_profile_double_free x = {taken[i].time,
                                       taken[i].addr,
                                       taken[i].size,
                                       site_id(taken[i].alloc_id),
                                       site_id(taken[i].free_id),
                                       site_id(taken[i].second_id),
                                       taken[i].stack,
                                       taken[i].tid};
    md_profile_double_free(&prof, &x);
  }
}

/* ---- what a snapshot writes ----------------------------------------------- */

struct drain_ctx {
  size_t n;
};

MD_COLD static void take_freed(const struct md_sample_freed *e, void *arg) {
  struct drain_ctx *c = arg;
  if (c->n < freed_cap)
    freed_buf[c->n++] = *e;
}

/* The queued frees of tracked blocks, with the sites and stacks they name.
 * Lock held, file open. */
MD_COLD static void write_frees(void) {
  if (!freed_buf) {
    freed_cap = 16384;
    freed_buf = md_mmap(freed_cap * sizeof(*freed_buf));
    if (!freed_buf) {
      freed_cap = 0;
      return;
    }
  }
  for (;;) {
    struct drain_ctx c = {0};
    /* Drain in rounds of at most freed_cap (the queue holds as many). */
    md_sample_drain(take_freed, &c);
    if (!c.n)
      return;
    write_new_sites();
    for (size_t i = 0; i < c.n; i++) {
      const struct md_sample_freed *e = &freed_buf[i];
      write_stack(e->stack);
      write_stack(e->free_stack);
      struct md_profile_free f = {e->time,        site_id(e->alloc_id),
                                  e->size,        e->alloc_time,
                                  site_id(e->free_id), e->stack,
                                  e->free_stack,  e->tid};
      md_profile_free(&prof, &f);
    }
    if (c.n < freed_cap)
      return;
  }
}

/* Every site's counters summed (counters.c), in rows kept from call to
 * call, and each site's peak raised to its live bytes now: the peak is the
 * highest live bytes seen at a totals record or at one of the profiler
 * thread's polls, every 100 ms (a spike between two is missed: exact peaks
 * would need one shared counter a site, which threads would contend for).
 * Returns the rows summed (ids 0..n-1), 0 without memory. Lock held,
 * tables mapped. */
static struct md_count *sums;
static size_t sums_cap;

MD_COLD static size_t sum_counters(void) {
  size_t n = md_origin_count() + 1;
  if (n > sums_cap) {
    size_t cap = n < 4096 ? 4096 : n * 2;
    struct md_count *bigger = md_mmap(cap * sizeof(*bigger));
    if (!bigger)
      return 0;
    md_munmap(sums, sums_cap * sizeof(*sums));
    sums = bigger;
    sums_cap = cap;
  }
  md_counts_sum(sums, n);
  for (size_t i = 0; i < n; i++) {
    uint64_t live = sums[i].bytes - sums[i].freed;
    if (live > peaks[i] && live < ((uint64_t)1 << 63)) /* not mid-update */
      peaks[i] = live;
  }
  return n;
}

/* T and C: exact totals of every site that ever allocated. */
static void write_totals(uint64_t time) {
  size_t n = sum_counters();
  struct md_profile_totals t = {time, 0, 0, 0, 0, 0};
  size_t rows = 0;
  for (size_t i = 0; i < n; i++) {
    const struct md_count *c = &sums[i];
    if (!c->allocs)
      continue;
    rows++;
    t.live_bytes += c->bytes - c->freed;
    t.live_blocks += c->allocs - c->frees;
    t.allocs += c->allocs;
    t.frees += c->frees;
    t.bytes += c->bytes;
  }
  /* Rows are written in groups, the T record first with their count. */
  struct md_profile_site_totals *v = md_mmap((rows ? rows : 1) * sizeof(*v));
  if (!v)
    return;
  size_t k = 0;
  for (size_t i = 0; i < n && k < rows; i++) {
    const struct md_count *c = &sums[i];
    if (!c->allocs)
      continue;
    v[k++] = (struct md_profile_site_totals){
        site_id((uint32_t)i), c->allocs - c->frees, c->bytes - c->freed,
        c->allocs, c->frees, c->bytes, peaks[i]};
  }
  md_profile_totals(&prof, &t, v, k);
  md_munmap(v, (rows ? rows : 1) * sizeof(*v));
}

/* A and B: the live tracked blocks. */
static void write_blocks(uint64_t time, const char *label) {
  size_t cap = md_sample_live_capacity();
  struct md_sample_block *live = md_mmap((cap ? cap : 1) * sizeof(*live));
  struct md_profile_block *out = md_mmap((cap ? cap : 1) * sizeof(*out));
  size_t n = 0;
  if (live && out)
    n = md_sample_live(live, cap);
  for (size_t i = 0; i < n; i++) {
    write_stack(live[i].stack);
    out[i] = (struct md_profile_block){site_id(live[i].alloc_id),
                                       live[i].size, live[i].time,
                                       live[i].addr, live[i].stack,
                                       live[i].tid};
  }
  md_profile_snapshot(&prof, time, label, out, n);
  md_munmap(live, (cap ? cap : 1) * sizeof(*live));
  md_munmap(out, (cap ? cap : 1) * sizeof(*out));
}

/* Lock held. */
MD_COLD static bool take(const char *label) {
  if (!ensure_open())
    return false;
  md_profile_batch(&prof, true);
  uint64_t time = now_ns();
  write_frees();
  write_double_frees();
  write_new_sites();
  write_limits(time, false);
  write_totals(time);
  write_blocks(time, label);
  return md_profile_batch(&prof, false);
}

MD_COLD int md_snapshot_take(const char *label) {
  md_ensure_init();
  md_lock(&lock);
  bool ok = take(label ? label : "");
  int err = ok ? 0 : failed ? failed_errno : ended ? ESHUTDOWN : errno;
  md_unlock(&lock);
  if (!ok) {
    errno = err ? err : EIO;
    return -1;
  }
  return 0;
}

/* The profiler thread's tick: the peaks; with sampling, the queued frees
 * and the tracking rules if they changed. */
static void tick(bool sampling) {
  md_lock(&lock);
  if (!ended && map_tables())
    sum_counters();
  if (sampling && ensure_open()) {
    md_profile_batch(&prof, true);
    write_frees();
    write_double_frees();
    write_limits(now_ns(), false);
    md_profile_batch(&prof, false);
  }
  md_unlock(&lock);
}

/* ---- when ------------------------------------------------------------------- */

MD_COLD static void *profiler(void *arg) {
  (void)arg;
  uint64_t interval = (uint64_t)md_opt.snapshot_interval * 1000000000ull;
  uint64_t next = interval ? now_ns() + interval : 0;
  bool sampling = md_sample_configured();
  for (;;) {
    uint64_t t = now_ns();
    uint64_t wait = TICK_NS;
    if (interval && next > t && next - t < wait)
      wait = next - t;
    if (interval && next <= t)
      wait = 0;
    struct timespec ts = {(time_t)(wait / 1000000000ull),
                          (long)(wait % 1000000000ull)};
    while (wait && nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    if (__atomic_load_n(&ended, __ATOMIC_ACQUIRE))
      return NULL;
    if (interval && now_ns() >= next) {
      md_snapshot_take("interval");
      next += interval;
      if (next < now_ns()) /* a long stop: no burst of catch-ups */
        next = now_ns() + interval;
    } else {
      tick(sampling);
    }
  }
}

static void start_thread(void) {
  if (!wanted)
    return;
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&t, &attr, profiler, NULL) != 0)
    md_log("mdebug: cannot start the profiler thread; snapshot_interval "
           "does nothing, frees of tracked blocks are written at snapshots "
           "only and peaks are those seen at snapshots");
  pthread_attr_destroy(&attr);
}

void md_snapshot_init(void) {
  struct timespec ts;
  start_ns = now_ns();
  clock_gettime(CLOCK_REALTIME, &ts);
  start_unix_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
  wanted = md_opt.profile_prefix[0] || md_opt.snapshot_interval ||
           md_sample_configured();
}

bool md_profiling(void) { return wanted; }

void md_snapshot_start(void) { start_thread(); }

void md_snapshot_at_exit(void) {
  md_lock(&lock);
  if ((wanted || is_open) && !ended && take("exit"))
    md_profile_close(&prof, now_ns());
  __atomic_store_n(&ended, true, __ATOMIC_RELEASE);
  is_open = false;
  md_unlock(&lock);
}

void md_snapshot_atfork_prepare(void) { md_lock(&lock); }
void md_snapshot_atfork_parent(void) { md_unlock(&lock); }
/* The parent's file stays the parent's: the child writes its own, from
 * scratch, and starts its own profiler thread. */
void md_snapshot_atfork_child(void) {
  md_lock_reset(&lock);
  md_lock_reset(&doubles_lock);
  if (is_open)
    md_out_close(&prof.out); /* our copy of the parent's descriptor */
  is_open = false;
  site0_written = false;
  toggles_written = 0;
  sites_written = 0;
  module_count = 0;
  limits_written = false;
  if (stacks_written) {
    md_munmap(stacks_written, ((size_t)1 << STACK_ID_BITS) / 8);
    stacks_written = md_mmap(((size_t)1 << STACK_ID_BITS) / 8);
  }
  if (frames_seen) {
    md_munmap(frames_seen, frames_cap * sizeof(*frames_seen));
    frames_seen = NULL;
    frames_cap = frames_count = 0;
  }
  start_thread();
}
