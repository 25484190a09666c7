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

#include "heap.h"
#include "lock.h"

#define MAX_BLOCKS_SHOWN 8 /* per group */

enum kind { KIND_DIRECT, KIND_INDIRECT, KIND_LIVE };
static const char *const kind_names[] = {"Direct leak of ", "Indirect leak of ", ""};

/* ---- the scan (scan.c), with the other threads stopped ------------------- */

struct stopped {
  struct md_scan *scan;
  int skip_tid; /* at exit: the exiting thread, whose stack is dead */
  bool start_only, with_reachable, ok;
  struct md_scan_result result;
};

static void visit_root(const struct md_region *r, void *arg) {
  struct stopped *st = arg;
  if (st->skip_tid && r->tid == st->skip_tid &&
      (strcmp(r->kind, "stack") == 0 || strcmp(r->kind, "registers") == 0))
    return;
  md_scan_region(st->scan, r->begin, r->end);
}

static void scan_stopped(void *arg) {
  struct stopped *st = arg;
  st->ok = false;
  if (!(st->scan = md_scan_begin(st->start_only)))
    return;
  md_scan_ignored_roots(st->scan);
  md_world_roots(visit_root, st);
  st->ok = md_scan_finish(st->scan, st->with_reachable, &st->result);
  md_scan_end(st->scan);
  st->scan = NULL;
}

/* ---- listing and reporting ----------------------------------------------- */

struct leak {
  md_origin_t origin;
  unsigned op; /* the allocating call */
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

/* Keeps what is the program's own and not excused. Blocks a forked child
 * inherited and blocks ignored or already reported never get here. */
static bool listable(md_origin_t origin, md_origin_t *last_origin,
                     bool *last_verdict) {
  if (origin != *last_origin) {
    *last_origin = origin;
    /* leak_track lists every live block, so it skips what libc, libstdc++
     * and the loader keep for themselves. leak_check needs that excuse only
     * for the loader (it keeps the dtv of exited threads in cached stacks no
     * root reaches): what libc and libstdc++ keep, they still point to, so
     * a getline buffer or asprintf string the program lost is reported. */
    *last_verdict = !(md_opt.leak_track ? md_origin_is_system(origin)
                                        : md_origin_is_loader(origin)) &&
                    !suppressed(origin);
  }
  return *last_verdict;
}

static struct leak leak_of(const struct md_scan_block *b, enum kind kind) {
  return (struct leak){b->origin, b->alloc_op, kind, b->size, b->user, 0, 0,
                       b->stack};
}

/* The reachability check. Returns the number of leaked blocks reported. */
static size_t check_unreachable(bool at_exit) {
  load_suppressions();
  /* One check at a time. The scan's state lives in mmap'ed memory: on
   * this stack (a root mid-run) or in our static data (a module's data, a
   * root) a pointer to a block would keep that block alive. */
  static md_lock_t check_lock = MD_LOCK_INIT;
  md_lock(&check_lock);
  struct stopped st;
  memset(&st, 0, sizeof(st));
  st.start_only = md_opt.leak_start_pointers_only;
  st.with_reachable = at_exit && md_opt.leak_show_reachable;
  /* At exit the exiting thread's stack holds only dead frames (main's
   * among them): what only it points to is lost once the process ends. */
  st.skip_tid = at_exit ? md_gettid() : 0;
  md_heap_scan_lock();
  bool stopped = md_world_stop(scan_stopped, &st); /* says why if not */
  md_heap_scan_unlock();
  if (stopped && !st.ok)
    md_log("mdebug: not enough memory to check the heap for leaks");
  size_t reported = 0;
  if (stopped && st.ok) {
    size_t n = 0, r = 0;
    struct leak *leaks = md_mmap(st.result.count * sizeof(struct leak) + 1);
    md_origin_t last_origin = 0;
    bool last_verdict = false;
    for (size_t i = 0; leaks && i < st.result.count; i++) {
      const struct md_scan_block *b = &st.result.blocks[i];
      if (b->kind != MD_SCAN_REACHABLE &&
          listable(b->origin, &last_origin, &last_verdict))
        leaks[n++] = leak_of(b, b->kind == MD_SCAN_INDIRECT ? KIND_INDIRECT
                                                            : KIND_DIRECT);
    }
    reported = report(leaks, n, st.result.reachable_blocks,
                      st.result.reachable_bytes, at_exit);
    if (leaks && st.with_reachable) {
      for (size_t i = 0; i < st.result.count; i++)
        if (st.result.blocks[i].kind == MD_SCAN_REACHABLE)
          leaks[r++] = leak_of(&st.result.blocks[i], KIND_DIRECT);
      list_reachable(leaks, r);
    }
    md_munmap(leaks, st.result.count * sizeof(struct leak) + 1);
  }
  md_scan_result_free(&st.result);
  md_unlock(&check_lock);
  return reported;
}

/* ---- leak_track: every block still allocated ----------------------------- */

struct live_list {
  struct leak *items;
  size_t count, capacity;
};

static void count_live(const struct md_block *b, void *arg) {
  (void)b;
  (*(size_t *)arg)++;
}

static void take_live(const struct md_block *b, void *arg) {
  struct live_list *l = arg;
  if (l->count < l->capacity) {
    uint32_t bits = __atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE);
    if ((MD_BITS_MARKS(bits) & (MD_MARK_IGNORED | MD_MARK_REPORTED)) ||
        MD_BITS_EPOCH(bits) != (md_fork_epoch & MD_EPOCH_MASK))
      return;
    l->items[l->count++] = (struct leak){
        md_origin_of(b->meta->alloc_origin), MD_BITS_ALLOC_OP(bits), KIND_LIVE,
        b->size, (uintptr_t)b->user, 0, 0, b->stacks ? b->stacks->alloc_stack : 0};
  }
}

static void check_guards(const struct md_block *b, void *arg) {
  (void)arg;
  md_guard_check(b, 0, 0);
}

/* ---- the interface ------------------------------------------------------- */

void md_leak_report_at_exit(void) {
  if (md_guards_on)
    md_heap_for_each(1u << MD_STATE_LIVE, check_guards, NULL);
  if (md_opt.leak_track) {
    size_t expected = 0;
    md_heap_for_each(1u << MD_STATE_LIVE, count_live, &expected);
    if (expected == 0)
      return;
    load_suppressions();
    struct live_list l = {0, 0, expected + expected / 4 + 64};
    size_t bytes = l.capacity * sizeof(struct leak);
    l.items = md_mmap(bytes);
    if (!l.items) {
      md_log("mdebug: not enough memory to list %zu live blocks at exit",
             expected);
      return;
    }
    md_heap_for_each(1u << MD_STATE_LIVE, take_live, &l);
    size_t kept = 0;
    md_origin_t last_origin = 0;
    bool last_verdict = false;
    for (size_t i = 0; i < l.count; i++)
      if (listable(l.items[i].origin, &last_origin, &last_verdict))
        l.items[kept++] = l.items[i];
    report(l.items, kept, 0, 0, true);
    md_munmap(l.items, bytes);
  } else if (md_opt.leak_check) {
    check_unreachable(true);
  }
}

size_t md_leak_check_now(void) {
  md_ensure_init();
  return check_unreachable(false);
}

void md_leak_ignore(const void *p) {
  md_ensure_init();
  struct md_block b;
  if (p && md_heap_find(p, &b) == MD_BLOCK) {
    uint32_t bits = __atomic_load_n(&b.meta->bits, __ATOMIC_ACQUIRE);
    uint32_t mark = (uint32_t)MD_MARK_IGNORED << MD_BITS_MARK_SHIFT;
    while (MD_BITS_STATE(bits) == MD_STATE_LIVE &&
           !__atomic_compare_exchange_n(&b.meta->bits, &bits, bits | mark, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      ;
    if (MD_BITS_STATE(bits) == MD_STATE_LIVE)
      return;
  }
  if (p)
    md_log("mdebug: mdebug_ignore(%p): not a live block allocated by mdebug; "
           "ignored", p);
}
