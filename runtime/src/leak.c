/* leak.c - leak reports. Two meanings, chosen by the options:
 *
 *  leak_check (the default): blocks no pointer reaches any more. The other
 *    threads are stopped (world_linux.c), every live block is marked that a
 *    root (module data, stacks, registers, TLS, registered regions) points
 *    into, transitively; the rest are leaked - "indirect" when another
 *    leaked block points to them, "direct" otherwise. Interior pointers
 *    count unless leak_start_pointers_only is set. At exit, the stack and
 *    registers of the thread running exit() are not roots: its frames are
 *    dead (main has returned, or exit() ends them), and stale pointers left
 *    in them would hide leaks.
 *  leak_track (malloc debug's meaning): every block still allocated at exit.
 *
 * Either way, guards of every live block are checked at exit; blocks a
 * forked child inherited, blocks the loader allocates for itself (for
 * leak_track, libc's and libstdc++'s too), blocks the program marked with mdebug_ignore() and leaks
 * matched by a `leak:PATTERN` line of the suppressions file are not listed.
 * Leaks are grouped by allocation site, direct before indirect, largest
 * group first. A block reported once (mdebug_check_leaks() mid-run) is not
 * reported again. Works in mmap'ed memory; never allocates, never calls
 * qsort (glibc's may allocate).
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "chunk.h"
#include "lock.h"

#define MAX_BLOCKS_SHOWN 8 /* per group */

/* free_op of a block that is still live: marks set by the leak machinery. */
#define MD_LIVE_IGNORED 0xff  /* mdebug_ignore(): never a leak, scanned as a root */
#define MD_LIVE_REPORTED 0xfe /* already reported as leaked */

enum kind { KIND_DIRECT, KIND_INDIRECT, KIND_LIVE };
static const char *const kind_names[] = {"Direct leak of ", "Indirect leak of ", ""};

/* ---- the scan ------------------------------------------------------------ */

enum { ST_UNREACHED, ST_REACHABLE, ST_INDIRECT };

struct entry {
  uintptr_t begin, end; /* the usable bytes */
  uint32_t state;
  uint32_t ignored;
};

struct scan {
  struct entry *entries;
  size_t count, capacity;
  uint32_t *work;
  size_t work_count;
  uintptr_t lo, hi;
  bool overflow, start_only;
  int skip_tid; /* at exit: the exiting thread, whose stack is dead */
  size_t reachable_blocks, reachable_bytes;
};

static void snap(void *user, void *arg) {
  struct scan *s = arg;
  if (s->count == s->capacity) {
    s->overflow = true;
    return;
  }
  struct md_chunk *c = md_chunk_of(user);
  s->entries[s->count++] = (struct entry){
      (uintptr_t)user, (uintptr_t)user + md_chunk_usable(c), ST_UNREACHED,
      c->free_op == MD_LIVE_IGNORED};
}

/* Quicksort by begin (median of three, smaller side first: log n depth). */
static void sort_entries(struct entry *v, long lo, long hi) {
  while (hi - lo > 16) {
    long mid = lo + (hi - lo) / 2;
    struct entry t;
#define SWAP(a, b) (t = v[a], v[a] = v[b], v[b] = t)
    if (v[mid].begin < v[lo].begin) SWAP(mid, lo);
    if (v[hi].begin < v[lo].begin) SWAP(hi, lo);
    if (v[hi].begin < v[mid].begin) SWAP(hi, mid);
    uintptr_t pivot = v[mid].begin;
    long i = lo, j = hi;
    while (i <= j) {
      while (v[i].begin < pivot) i++;
      while (v[j].begin > pivot) j--;
      if (i <= j) {
        SWAP(i, j);
        i++;
        j--;
      }
    }
    if (j - lo < hi - i) {
      sort_entries(v, lo, j);
      lo = i;
    } else {
      sort_entries(v, i, hi);
      hi = j;
    }
  }
  for (long i = lo + 1; i <= hi; i++) {
    struct entry x = v[i];
    long j = i - 1;
    for (; j >= lo && v[j].begin > x.begin; j--)
      v[j + 1] = v[j];
    v[j + 1] = x;
  }
#undef SWAP
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
  if (w < e->begin || (w >= e->end && w != e->begin))
    return -1;
  if (s->start_only && w != e->begin)
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
  if (s->skip_tid && r->tid == s->skip_tid &&
      (strcmp(r->kind, "stack") == 0 || strcmp(r->kind, "registers") == 0))
    return;
  scan_words(s, r->begin, r->end, ST_REACHABLE, -1);
  drain(s, ST_REACHABLE);
}

/* Runs with every other thread stopped: snapshot, mark, classify. */
static void scan_stopped(void *arg) {
  struct scan *s = arg;
  s->count = 0;
  s->overflow = false;
  md_track_for_each_stopped(MD_TRACK_LIVE, snap, s);
  if (s->overflow || s->count == 0)
    return;
  sort_entries(s->entries, 0, (long)s->count - 1);
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
    if (s->entries[i].ignored) {
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
}

/* ---- listing and reporting ----------------------------------------------- */

struct leak {
  md_origin_t origin;
  enum kind kind;
  size_t size;
  uintptr_t user;
  size_t group_bytes;
  size_t group_count;
  uint32_t stack; /* allocation stack (depot id), 0 if none recorded */
};

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

/* ---- suppressions: `leak:PATTERN` lines, matched against the allocation
 * site's function, file and module ('*' wildcard, '^'/'$' anchors). */

static struct {
  char *text; /* the file, '\0' between lines; mmap'ed */
  size_t size;
  bool loaded;
} supp;

static void load_suppressions(void) {
  if (supp.loaded || !md_opt.suppressions[0])
    return;
  supp.loaded = true;
  int fd = open(md_opt.suppressions, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    md_log("mdebug: cannot read the suppressions file %s; no leak is "
           "suppressed", md_opt.suppressions);
    return;
  }
  size_t cap = 1 << 20;
  supp.text = md_mmap(cap);
  ssize_t n;
  while (supp.text && supp.size < cap - 1 &&
         (n = read(fd, supp.text + supp.size, cap - 1 - supp.size)) > 0)
    supp.size += (size_t)n;
  close(fd);
  for (size_t i = 0; i < supp.size; i++)
    if (supp.text[i] == '\n')
      supp.text[i] = '\0';
  /* Every non-empty, non-comment line must be leak:PATTERN. */
  for (size_t i = 0; i < supp.size; i += strlen(supp.text + i) + 1) {
    const char *line = supp.text + i;
    while (*line == ' ' || *line == '\t')
      line++;
    if (*line && *line != '#' && strncmp(line, "leak:", 5) != 0)
      md_log("mdebug: %s: ignoring a line that is not leak:PATTERN: %s",
             md_opt.suppressions, line);
  }
}

/* Glob match of pattern p (length n) anywhere in s, with ^ and $ anchors. */
static bool glob_here(const char *p, size_t n, const char *s, bool anchored_end) {
  if (n == 0)
    return !anchored_end || *s == '\0';
  if (*p == '*') {
    for (;; s++) {
      if (glob_here(p + 1, n - 1, s, anchored_end))
        return true;
      if (!*s)
        return false;
    }
  }
  return *s && *s == *p && glob_here(p + 1, n - 1, s + 1, anchored_end);
}

static bool glob(const char *pattern, const char *s) {
  size_t n = strlen(pattern);
  bool start = n && pattern[0] == '^', end = n && pattern[n - 1] == '$';
  const char *p = pattern + start;
  n -= start + end;
  if (start)
    return glob_here(p, n, s, end);
  for (; ; s++) {
    if (glob_here(p, n, s, end))
      return true;
    if (!*s)
      return false;
  }
}

static bool suppressed(md_origin_t origin) {
  if (!supp.text)
    return false;
  const char *names[3] = {0};
  char module[512];
  md_origin_names(origin, &names[0], &names[1], module, sizeof(module));
  names[2] = module;
  for (size_t i = 0; i < supp.size; i += strlen(supp.text + i) + 1) {
    const char *line = supp.text + i;
    while (*line == ' ' || *line == '\t')
      line++;
    if (strncmp(line, "leak:", 5) != 0 || !line[5])
      continue;
    for (int k = 0; k < 3; k++)
      if (names[k] && names[k][0] && glob(line + 5, names[k]))
        return true;
  }
  return false;
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
           md_op_name(md_chunk_of((void *)v[i].user)->alloc_op), where);
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
      struct md_chunk *c = md_chunk_of((void *)l->user);
      md_report_line("%s%zu byte%s in %zu block%s:", kind_names[l->kind],
                     l->group_bytes, l->group_bytes == 1 ? "" : "s",
                     l->group_count, l->group_count == 1 ? "" : "s");
      md_report_origin("allocated", c->alloc_op, l->origin);
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

/* Keeps what is the program's own and not excused; marks it reported. */
static bool listable(struct md_chunk *c, md_origin_t *last_origin,
                     bool *last_verdict) {
  if (c->free_op == MD_LIVE_IGNORED || c->free_op == MD_LIVE_REPORTED)
    return false;
  if (md_chunk_epoch(c) != (md_fork_epoch & MD_EPOCH_MASK))
    return false; /* inherited from the parent process */
  if (c->alloc_origin != *last_origin) {
    *last_origin = c->alloc_origin;
    /* leak_track lists every live block, so it skips what libc, libstdc++
     * and the loader keep for themselves. leak_check needs that excuse only
     * for the loader (it keeps the dtv of exited threads in cached stacks no
     * root reaches): what libc and libstdc++ keep, they still point to, so
     * a getline buffer or asprintf string the program lost is reported. */
    *last_verdict = !(md_opt.leak_track ? md_origin_is_system(c->alloc_origin)
                                        : md_origin_is_loader(c->alloc_origin)) &&
                    !suppressed(c->alloc_origin);
  }
  return *last_verdict;
}

/* The reachability check. Returns the number of leaked blocks reported. */
static size_t check_unreachable(bool at_exit) {
  size_t expected = md_track_count(MD_TRACK_LIVE);
  if (expected == 0)
    return 0;
  load_suppressions();
  /* The scan's state lives in mmap'ed memory, which is no root: on this
   * stack (a root mid-run) or in our static data (a module's data, a root)
   * sc->lo, the address of the lowest block, would keep that block alive.
   * One check at a time (check_lock). */
  static md_lock_t check_lock = MD_LOCK_INIT;
  static struct scan *state;
  md_lock(&check_lock);
  if (!state && !(state = md_mmap(sizeof(*state)))) {
    md_unlock(&check_lock);
    return 0;
  }
  struct scan *sc = state;
  memset(sc, 0, sizeof(*sc));
  sc->start_only = md_opt.leak_start_pointers_only;
  /* At exit the exiting thread's stack holds only dead frames (main's
   * among them): what only it points to is lost once the process ends. */
  sc->skip_tid = at_exit ? md_gettid() : 0;
  size_t bytes_entries = 0, bytes_work = 0;
  bool scanned = false;
  for (int attempt = 0; attempt < 8; attempt++) {
    if (!sc->entries || sc->overflow) {
      md_munmap(sc->entries, bytes_entries);
      md_munmap(sc->work, bytes_work);
      sc->capacity = (sc->overflow ? sc->capacity * 2 : expected + expected / 4) + 1024;
      bytes_entries = sc->capacity * sizeof(struct entry);
      bytes_work = sc->capacity * sizeof(uint32_t);
      sc->entries = md_mmap(bytes_entries);
      sc->work = md_mmap(bytes_work);
      if (!sc->entries || !sc->work) {
        md_log("mdebug: not enough memory to check %zu blocks for leaks", expected);
        md_munmap(sc->entries, bytes_entries);
        md_munmap(sc->work, bytes_work);
        md_unlock(&check_lock);
        return 0;
      }
    }
    if (!md_world_stop(scan_stopped, sc))
      break; /* md_world_stop said why */
    if (!sc->overflow) { /* the live set grew past the snapshot: again, larger */
      scanned = true;
      break;
    }
  }
  size_t reported = 0;
  if (scanned) {
    struct leak *leaks = md_mmap(sc->count * sizeof(struct leak) + 1);
    size_t n = 0;
    md_origin_t last_origin = 0;
    bool last_verdict = false;
    for (size_t i = 0; leaks && i < sc->count; i++) {
      struct entry *e = &sc->entries[i];
      struct md_chunk *c = md_chunk_of((void *)e->begin);
      if (e->state == ST_REACHABLE) {
        sc->reachable_blocks++;
        sc->reachable_bytes += c->size;
        continue;
      }
      if (!listable(c, &last_origin, &last_verdict))
        continue;
      leaks[n++] = (struct leak){c->alloc_origin,
                                 e->state == ST_INDIRECT ? KIND_INDIRECT
                                                         : KIND_DIRECT,
                                 c->size, e->begin, 0, 0,
                                 md_chunk_alloc_stack(c)};
    }
    reported = report(leaks, n, sc->reachable_blocks, sc->reachable_bytes, at_exit);
    for (size_t i = 0; i < n; i++)
      md_chunk_of((void *)leaks[i].user)->free_op = MD_LIVE_REPORTED;
    if (at_exit && md_opt.leak_show_reachable) {
      size_t r = 0;
      for (size_t i = 0; i < sc->count; i++)
        if (sc->entries[i].state == ST_REACHABLE) {
          struct md_chunk *c = md_chunk_of((void *)sc->entries[i].begin);
          leaks[r++] = (struct leak){c->alloc_origin, KIND_DIRECT, c->size,
                                     sc->entries[i].begin, 0, 0,
                                     md_chunk_alloc_stack(c)};
        }
      list_reachable(leaks, r);
    }
    md_munmap(leaks, sc->count * sizeof(struct leak) + 1);
  }
  md_munmap(sc->entries, bytes_entries);
  md_munmap(sc->work, bytes_work);
  memset(sc, 0, sizeof(*sc));
  md_unlock(&check_lock);
  return reported;
}

/* ---- leak_track: every block still allocated ----------------------------- */

struct live_list {
  struct leak *items;
  size_t count, capacity;
};

static void take_live(void *user, void *arg) {
  struct live_list *l = arg;
  if (l->count < l->capacity) {
    struct md_chunk *c = md_chunk_of(user);
    l->items[l->count++] = (struct leak){c->alloc_origin, KIND_LIVE, c->size,
                                         (uintptr_t)user, 0, 0,
                                         md_chunk_alloc_stack(c)};
  }
}

/* Collects every live block, checks its guards (after the walk: reporting
 * under a table lock would order the report lock after it), and keeps the
 * listable ones if asked. */
static void list_live_blocks(struct live_list *l, bool keep_listable) {
  md_track_for_each(MD_TRACK_LIVE, take_live, l);
  size_t kept = 0;
  md_origin_t last_origin = 0;
  bool last_verdict = false;
  for (size_t i = 0; i < l->count; i++) {
    struct md_chunk *c = md_chunk_of((void *)l->items[i].user);
    md_guard_check(c, 0, 0);
    if (keep_listable && listable(c, &last_origin, &last_verdict))
      l->items[kept++] = l->items[i];
  }
  l->count = kept;
}

/* ---- the interface ------------------------------------------------------- */

void md_leak_report_at_exit(void) {
  size_t expected = md_track_count(MD_TRACK_LIVE);
  if (expected == 0)
    return;
  load_suppressions();
  struct live_list l = {0, 0, expected + expected / 4 + 64};
  size_t bytes = l.capacity * sizeof(struct leak);
  l.items = md_mmap(bytes);
  if (!l.items) {
    md_log("mdebug: not enough memory to list %zu live blocks at exit", expected);
    return;
  }
  list_live_blocks(&l, md_opt.leak_track);
  if (md_opt.leak_track)
    report(l.items, l.count, 0, 0, true);
  md_munmap(l.items, bytes);
  if (!md_opt.leak_track && md_opt.leak_check)
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
