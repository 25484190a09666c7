/* leak.c - leak reports. Two meanings, chosen by the options:
 *
 *  leak_check (the default): blocks no pointer reaches any more. The other
 *    threads are stopped (stop_linux.c), every live block is marked that a
 *    root (module data, stacks, registers, TLS, registered regions; see
 *    roots_linux.c) points into, transitively; the rest are leaked -
 *    "indirect" when another leaked block points to them, "direct"
 *    otherwise. Interior pointers count unless leak_start_pointers_only is
 *    set; a pointer just past an 8-byte block of operator new[] holding 0
 *    counts too (new T[0] of a type with a destructor: an array cookie, and
 *    the pointer the program holds is its end). At exit, the exiting
 *    thread's registers and the frames below its call of exit() are not
 *    roots: they are dead (main has returned, or exit() ends them), and
 *    stale pointers left in them would hide leaks; the frames above that
 *    call (main's, when a helper calls exit()) are still live and are.
 *  leak_track (malloc debug's meaning): every block still allocated at exit.
 *
 * Everything a report says about a block (size, site, call, stack) is taken
 * while the threads are stopped, and leaked blocks are marked reported
 * then: once they run again, any block may be freed and its memory reused
 * or unmapped. Blocks a forked child inherited, blocks the loader allocates
 * for itself (for leak_track, libc's and libstdc++'s too), blocks the
 * program marked with mdebug_ignore() and leaks matched by the suppressions
 * file (suppress.c) are not listed. Leaks are grouped by allocation site,
 * direct before indirect, largest group first. A block reported once
 * (mdebug_check_leaks() mid-run) is not reported again. A check that cannot
 * run (threads that cannot be stopped, no memory) is reported as an error,
 * never passed over in silence. Works in mmap'ed memory; never allocates,
 * never calls qsort (glibc's may allocate).
 */
#include <string.h>

#include "chunk.h"
#include "lock.h"

#define MAX_BLOCKS_SHOWN 8 /* per group */

/* free_op of a block that is still live: marks set by the leak machinery
 * (the block's marks, once metadata is out of band). */
#define MD_LIVE_IGNORED 0xff  /* mdebug_ignore(): never a leak, scanned as a root */
#define MD_LIVE_REPORTED 0xfe /* already reported as leaked */

/* operator new[] of a type with a destructor puts the element count in a
 * word before the elements: new T[0] is a block of just that word, 0, and
 * the program holds a pointer to its end (as LeakSanitizer special-cases). */
#define ARRAY_COOKIE_SIZE sizeof(size_t)

enum kind { KIND_DIRECT, KIND_INDIRECT, KIND_LIVE, KIND_REACHABLE };
static const char *const kind_names[] = {"Direct leak of ", "Indirect leak of ",
                                         "", ""};

/* ---- the scan ------------------------------------------------------------ */

enum { ST_UNREACHED, ST_REACHABLE, ST_INDIRECT };
enum { E_IGNORED = 1, E_END_KEEPS = 2 };

struct entry {
  uintptr_t begin, end; /* the usable bytes */
  uint32_t state;
  uint32_t flags; /* E_* */
};

/* What a report says about one block. */
struct leak {
  md_origin_t origin;
  uintptr_t user;
  size_t size;
  size_t group_bytes;
  size_t group_count;
  uint32_t stack; /* allocation stack (depot id), 0 if none recorded */
  uint8_t kind;   /* enum kind */
  uint8_t op;     /* the allocating call */
};

struct scan {
  struct entry *entries;
  size_t count, capacity;
  uint32_t *work;
  size_t work_count;
  /* capacity records: leaked blocks from the front, reachable ones (when
   * listed) from the back. */
  struct leak *records;
  size_t leak_count, reachable_count;
  uintptr_t lo, hi;
  bool overflow, start_only, list_reachable;
  int skip_tid;      /* at exit: the exiting thread */
  uintptr_t live_sp; /* ... whose stack is live from here up (0: none) */
  unsigned epoch;    /* this process's fork epoch */
  size_t reachable_blocks, reachable_bytes;
};

static void snap(void *user, void *arg) {
  struct scan *s = arg;
  if (s->count == s->capacity) {
    s->overflow = true;
    return;
  }
  struct md_chunk *c = md_chunk_of(user);
  uint32_t flags = c->free_op == MD_LIVE_IGNORED ? E_IGNORED : 0;
  if (c->size == ARRAY_COOKIE_SIZE &&
      md_chunk_family(c) == MD_FAMILY_NEW_ARRAY && *(const size_t *)user == 0)
    flags |= E_END_KEEPS;
  s->entries[s->count++] = (struct entry){
      (uintptr_t)user, (uintptr_t)user + md_chunk_usable(c), ST_UNREACHED,
      flags};
}

static bool entry_before(const void *a, const void *b) {
  return ((const struct entry *)a)->begin < ((const struct entry *)b)->begin;
}

/* Index of the block w points into, or -1. */
static inline long find(const struct scan *s, uintptr_t w) {
  if (w < s->lo || w >= s->hi)
    return -1;
  size_t a = 0, b = s->count; /* last entry with begin <= w */
  while (b - a > 1) {
    size_t m = a + (b - a) / 2;
    if (s->entries[m].begin <= w)
      a = m;
    else
      b = m;
  }
  const struct entry *e = &s->entries[a];
  if (w == e->begin)
    return (long)a;
  if (w - e->begin == ARRAY_COOKIE_SIZE && (e->flags & E_END_KEEPS))
    return (long)a;
  if (s->start_only || w >= e->end)
    return -1;
  return (long)a;
}

/* Marks every unreached block a word of [b, e) points into as `state`,
 * queueing it to be scanned in turn; skips `self`. */
static void scan_words(struct scan *s, uintptr_t b, uintptr_t e, uint32_t state,
                       long self) {
  for (uintptr_t p = (b + 7) & ~(uintptr_t)7; p + 8 <= e; p += 8) {
    long i = find(s, *(const uintptr_t *)p);
    if (i < 0 || i == self || s->entries[i].state != ST_UNREACHED)
      continue;
    s->entries[i].state = state;
    s->work[s->work_count++] = (uint32_t)i;
  }
}

static void drain(struct scan *s, uint32_t state) {
  while (s->work_count) {
    struct entry *e = &s->entries[s->work[--s->work_count]];
    scan_words(s, e->begin, e->end, state, -1);
  }
}

static void visit_root(const struct md_region *r, void *arg) {
  struct scan *s = arg;
  uintptr_t begin = r->begin;
  if (s->skip_tid && r->tid == s->skip_tid) {
    if (strcmp(r->kind, "registers") == 0)
      return;
    if (strcmp(r->kind, "stack") == 0) {
      /* Only the frames still live: from exit()'s caller up. */
      if (s->live_sp < r->begin || s->live_sp >= r->end)
        return;
      begin = s->live_sp;
    }
  }
  scan_words(s, begin, r->end, ST_REACHABLE, -1);
  drain(s, ST_REACHABLE);
}

/* Still stopped: everything the report needs, and the leaked blocks marked
 * reported (a block may be freed, its memory reused or unmapped, as soon
 * as the threads run again). */
static void take_records(struct scan *s) {
  size_t front = 0, back = s->capacity;
  for (size_t i = 0; i < s->count; i++) {
    const struct entry *e = &s->entries[i];
    struct md_chunk *c = md_chunk_of((void *)e->begin);
    enum kind kind;
    if (e->state == ST_REACHABLE) {
      s->reachable_blocks++;
      s->reachable_bytes += c->size;
      if (!s->list_reachable)
        continue;
      kind = KIND_REACHABLE;
    } else {
      if (c->free_op == MD_LIVE_REPORTED || md_chunk_epoch(c) != s->epoch)
        continue; /* reported before; inherited from the parent process */
      kind = e->state == ST_INDIRECT ? KIND_INDIRECT : KIND_DIRECT;
      c->free_op = MD_LIVE_REPORTED;
    }
    struct leak r = {c->alloc_origin, e->begin, c->size, 0, 0,
                     md_chunk_alloc_stack(c), (uint8_t)kind,
                     (uint8_t)c->alloc_op};
    if (kind == KIND_REACHABLE)
      s->records[--back] = r;
    else
      s->records[front++] = r;
  }
  s->leak_count = front;
  s->reachable_count = s->capacity - back;
}

/* Runs with every other thread stopped: snapshot, mark, classify, take. */
static void scan_stopped(void *arg) {
  struct scan *s = arg;
  s->count = 0;
  s->overflow = false;
  s->leak_count = s->reachable_count = 0;
  s->reachable_blocks = s->reachable_bytes = 0;
  md_track_for_each_stopped(MD_TRACK_LIVE, snap, s);
  if (s->overflow || s->count == 0)
    return;
  md_sort(s->entries, s->count, sizeof(struct entry), entry_before);
  /* A thread stopped while moving a table entry (track.c's deletion) shows
   * that block twice: keep one. */
  size_t kept = 1;
  for (size_t i = 1; i < s->count; i++)
    if (s->entries[i].begin != s->entries[kept - 1].begin)
      s->entries[kept++] = s->entries[i];
  s->count = kept;
  s->lo = s->entries[0].begin;
  s->hi = s->entries[s->count - 1].end + 1;
  s->work_count = 0;
  /* Blocks the program asked us to ignore are kept and act as roots. */
  for (size_t i = 0; i < s->count; i++)
    if (s->entries[i].flags & E_IGNORED) {
      s->entries[i].state = ST_REACHABLE;
      s->work[s->work_count++] = (uint32_t)i;
    }
  drain(s, ST_REACHABLE);
  md_world_roots(visit_root, s);
  /* What a leaked block points to is an indirect leak. */
  for (size_t i = 0; i < s->count; i++) {
    struct entry *e = &s->entries[i];
    if (e->state == ST_UNREACHED || e->state == ST_INDIRECT) {
      scan_words(s, e->begin, e->end, ST_INDIRECT, (long)i);
      s->work_count = 0; /* each leaked block is scanned once, here */
    }
  }
  take_records(s);
}

/* ---- listing and reporting ----------------------------------------------- */

static bool by_group_key(const void *pa, const void *pb) {
  const struct leak *a = pa, *b = pb;
  if (a->kind != b->kind)
    return a->kind < b->kind;
  if (a->origin != b->origin)
    return a->origin < b->origin;
  if (a->stack != b->stack)
    return a->stack < b->stack;
  if (a->size != b->size)
    return a->size > b->size;
  return a->user < b->user;
}

static bool by_group_bytes(const void *pa, const void *pb) {
  const struct leak *a = pa, *b = pb;
  if (a->kind != b->kind)
    return a->kind < b->kind;
  if (a->group_bytes != b->group_bytes)
    return a->group_bytes > b->group_bytes;
  return by_group_key(a, b);
}

/* One group per kind, site and (when recorded) allocation stack. */
static bool same_group(const struct leak *a, const struct leak *b) {
  return a->kind == b->kind && a->origin == b->origin && a->stack == b->stack;
}

/* Sorts v into groups (same kind and site), largest first within a kind,
 * filling in each record's group totals; returns the total bytes and the
 * direct and indirect block counts. */
static size_t group(struct leak *v, size_t n, size_t *direct, size_t *indirect) {
  size_t total_bytes = 0;
  *direct = *indirect = 0;
  md_sort(v, n, sizeof(*v), by_group_key);
  for (size_t i = 0; i < n;) {
    size_t j = i, sum = 0;
    for (; j < n && same_group(&v[j], &v[i]); j++)
      sum += v[j].size;
    for (size_t k = i; k < j; k++) {
      v[k].group_bytes = sum;
      v[k].group_count = j - i;
    }
    total_bytes += sum;
    if (v[i].kind == KIND_INDIRECT)
      *indirect += j - i;
    else
      *direct += j - i;
    i = j;
  }
  md_sort(v, n, sizeof(*v), by_group_bytes);
  return total_bytes;
}

/* leak_show_reachable: one line per site, as notes (not leaks). */
static void list_reachable(struct leak *v, size_t n) {
  size_t direct, indirect, total = group(v, n, &direct, &indirect);
  char where[512];
  md_log("mdebug: still reachable at exit: %zu byte%s in %zu block%s", total,
         total == 1 ? "" : "s", n, n == 1 ? "" : "s");
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && same_group(&v[i], &v[i - 1]))
      continue;
    md_origin_describe(where, sizeof(where), v[i].origin);
    md_log("Still reachable: %zu byte%s in %zu block%s allocated by %s at %s",
           v[i].group_bytes, v[i].group_bytes == 1 ? "" : "s",
           v[i].group_count, v[i].group_count == 1 ? "" : "s",
           md_op_name(v[i].op), where);
  }
}

/* Reports the list (sorted here); returns the number of blocks listed. */
static size_t report(struct leak *v, size_t n, size_t reachable_blocks,
                     size_t reachable_bytes, bool at_exit) {
  size_t direct, indirect;
  if (!n)
    return 0;
  size_t total_bytes = group(v, n, &direct, &indirect);
  if (!md_report_begin(MD_ERR_LEAK))
    return n;
  if (v[0].kind == KIND_LIVE)
    md_report_line("mdebug: %zu byte%s leaked in %zu block%s (leak_track: "
                   "every block still allocated at exit)",
                   total_bytes, total_bytes == 1 ? "" : "s", n, n == 1 ? "" : "s");
  else
    md_report_line("mdebug: %zu byte%s leaked in %zu block%s (%zu direct, %zu "
                   "indirect)%s; %zu block%s (%zu bytes) still reachable",
                   total_bytes, total_bytes == 1 ? "" : "s", n, n == 1 ? "" : "s",
                   direct, indirect, at_exit ? "" : " so far", reachable_blocks,
                   reachable_blocks == 1 ? "" : "s", reachable_bytes);
  size_t groups = 0, shown = 0;
  for (size_t i = 0; i < n; i++) {
    struct leak *l = &v[i];
    if (i == 0 || !same_group(l, &v[i - 1])) {
      if (md_opt.max_leaks && groups == md_opt.max_leaks) {
        size_t rest = 0;
        for (size_t k = i; k < n; k++)
          rest += k == i || !same_group(&v[k], &v[k - 1]);
        md_report_line("... %zu more leak group%s not shown (max_leaks=%zu)",
                       rest, rest == 1 ? "" : "s", md_opt.max_leaks);
        break;
      }
      groups++;
      md_report_line("%s%zu byte%s in %zu block%s:", kind_names[l->kind],
                     l->group_bytes, l->group_bytes == 1 ? "" : "s",
                     l->group_count, l->group_count == 1 ? "" : "s");
      md_report_origin("allocated", l->op, l->origin);
      md_report_stack("Backtrace at time of allocation:", l->stack);
      shown = 0;
    }
    if (++shown <= MAX_BLOCKS_SHOWN)
      md_report_line("+++ %s leaked block of size %zu at %p (leak %zu of %zu)",
                     md_progname(), l->size, (void *)l->user, i + 1, n);
    else if (shown == MAX_BLOCKS_SHOWN + 1)
      md_report_line("  ... %zu more block%s from this site",
                     l->group_count - MAX_BLOCKS_SHOWN,
                     l->group_count - MAX_BLOCKS_SHOWN == 1 ? "" : "s");
  }
  md_report_end();
  md_report_add_leaks(n, total_bytes);
  return n;
}

/* leak_track lists every live block, so it skips what libc, libstdc++ and
 * the loader keep for themselves. leak_check needs that excuse only for the
 * loader (it keeps the dtv of exited threads in cached stacks no root
 * reaches): what libc and libstdc++ keep, they still point to, so a getline
 * buffer or asprintf string the program lost is reported. Blocks of one
 * site come in runs, so the last verdict is kept. */
static bool excused(md_origin_t origin, md_origin_t *last_origin,
                    bool *last_verdict) {
  if (origin != *last_origin || !*last_origin) {
    *last_origin = origin;
    *last_verdict = (md_opt.leak_track ? md_origin_is_system(origin)
                                       : md_origin_is_loader(origin)) ||
                    md_suppressed(origin);
  }
  return *last_verdict;
}

/* Drops the excused records of v[0..n); returns how many are left. */
static size_t drop_excused(struct leak *v, size_t n) {
  md_origin_t last_origin = 0;
  bool last_verdict = false;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (!excused(v[i].origin, &last_origin, &last_verdict))
      v[kept++] = v[i];
  return kept;
}

/* A check that could not run is an error (counted, and it sets the exit
 * status): a clean summary would say the program leaks nothing. */
static void cannot_run(const char *why) {
  if (!md_report_begin(MD_ERR_LEAK_CHECK))
    return;
  md_report_line("mdebug: leak check could not run: %s", why);
  md_report_end();
}

static void unmap_scan(struct scan *sc) {
  md_munmap(sc->entries, sc->capacity * sizeof(struct entry));
  md_munmap(sc->work, sc->capacity * sizeof(uint32_t));
  md_munmap(sc->records, sc->capacity * sizeof(struct leak));
  sc->entries = NULL;
  sc->work = NULL;
  sc->records = NULL;
}

/* The reachability check. Returns the number of leaked blocks reported. */
static size_t check_unreachable(bool at_exit) {
  size_t expected = md_track_count(MD_TRACK_LIVE);
  if (expected == 0)
    return 0;
  md_suppress_load();
  /* The scan's state lives in mmap'ed memory, which is no root: on this
   * stack (a root mid-run) or in our static data (a module's data, a root)
   * sc->lo, the address of the lowest block, would keep that block alive.
   * One check at a time (check_lock). */
  static md_lock_t check_lock = MD_LOCK_INIT;
  static struct scan *state;
  md_lock(&check_lock);
  if (!state && !(state = md_mmap(sizeof(*state)))) {
    md_unlock(&check_lock);
    cannot_run("out of memory (mmap failed)");
    return 0;
  }
  struct scan *sc = state;
  memset(sc, 0, sizeof(*sc));
  sc->start_only = md_opt.leak_start_pointers_only;
  sc->list_reachable = at_exit && md_opt.leak_show_reachable;
  sc->epoch = md_fork_epoch & MD_EPOCH_MASK;
  if (at_exit) {
    sc->skip_tid = md_gettid();
    sc->live_sp = md_exit_live_sp();
  }
  const char *failure = NULL;
  char why[256];
  bool scanned = false;
  for (int attempt = 0; attempt < 8 && !scanned && !failure; attempt++) {
    if (!sc->entries || sc->overflow) {
      size_t capacity = sc->overflow ? sc->capacity * 2
                                     : expected + expected / 4 + 1024;
      unmap_scan(sc);
      sc->capacity = capacity;
      sc->entries = md_mmap(capacity * sizeof(struct entry));
      sc->work = md_mmap(capacity * sizeof(uint32_t));
      sc->records = md_mmap(capacity * sizeof(struct leak));
      if (!sc->entries || !sc->work || !sc->records) {
        failure = "not enough memory for the scan (mmap failed)";
        break;
      }
    }
    if (!md_world_stop(scan_stopped, sc)) {
      md_format(why, sizeof(why), "%s", md_world_stop_failure());
      failure = why;
    }
    else if (!sc->overflow)
      scanned = true;
    /* else the live set grew past the snapshot: again, larger */
  }
  size_t reported = 0;
  if (scanned) {
    size_t n = drop_excused(sc->records, sc->leak_count);
    reported = report(sc->records, n, sc->reachable_blocks,
                      sc->reachable_bytes, at_exit);
    if (sc->list_reachable)
      list_reachable(sc->records + sc->capacity - sc->reachable_count,
                     sc->reachable_count);
  }
  unmap_scan(sc);
  memset(sc, 0, sizeof(*sc));
  md_unlock(&check_lock);
  if (!scanned)
    cannot_run(failure ? failure : "the heap kept growing faster than the "
                                   "scan could make room for it");
  return reported;
}

/* ---- leak_track: every block still allocated ----------------------------- */

struct live_list {
  struct leak *items;
  size_t count, capacity;
  unsigned epoch;
};

/* Inside the walk, which keeps every block it lists from being released:
 * what the report needs is taken here. */
static void take_live(void *user, void *arg) {
  struct live_list *l = arg;
  struct md_chunk *c = md_chunk_of(user);
  if (l->count == l->capacity || c->free_op == MD_LIVE_IGNORED ||
      c->free_op == MD_LIVE_REPORTED || md_chunk_epoch(c) != l->epoch)
    return;
  l->items[l->count++] = (struct leak){c->alloc_origin, (uintptr_t)user,
                                       c->size, 0, 0, md_chunk_alloc_stack(c),
                                       KIND_LIVE, (uint8_t)c->alloc_op};
}

static void report_live(void) {
  size_t expected = md_track_count(MD_TRACK_LIVE);
  if (expected == 0)
    return;
  md_suppress_load();
  struct live_list l = {0, 0, expected + expected / 4 + 64,
                        md_fork_epoch & MD_EPOCH_MASK};
  size_t bytes = l.capacity * sizeof(struct leak);
  l.items = md_mmap(bytes);
  if (!l.items) {
    md_log("mdebug: not enough memory to list %zu live blocks at exit", expected);
    return;
  }
  md_track_for_each(MD_TRACK_LIVE, take_live, &l);
  report(l.items, drop_excused(l.items, l.count), 0, 0, true);
  md_munmap(l.items, bytes);
}

/* ---- the interface ------------------------------------------------------- */

void md_leak_report_at_exit(void) {
  if (md_opt.leak_track)
    report_live();
  else if (md_opt.leak_check)
    check_unreachable(true);
}

size_t md_leak_check_now(void) {
  md_ensure_init();
  return check_unreachable(false);
}

void md_leak_ignore(const void *p) {
  md_ensure_init();
  if (p && md_track_lookup((void *)p) == MD_TRACK_LIVE)
    md_chunk_of(p)->free_op = MD_LIVE_IGNORED;
  else if (p)
    md_log("mdebug: mdebug_ignore(%p): not a live block allocated by mdebug; "
           "ignored", p);
}
