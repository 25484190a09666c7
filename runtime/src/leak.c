/* leak.c - leak reports. Two meanings, chosen by the options:
 *
 *  leak_check (the default): blocks no pointer reaches any more. The other
 *    threads are stopped (stop_linux.c), every live block is marked that a
 *    root (module data, stacks, registers, TLS, registered regions; see
 *    roots_linux.c) points into, transitively (scan.c); the rest are leaked -
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
 * The program's mappings (mmap.c) are found as blocks are: unreachable ones
 * with leak_check (scan.c follows pointers into and out of them), every one
 * still mapped with leak_track. They are listed apart, after the blocks, in
 * a NOTE ("Mapping leak of N bytes in 1 mapping") that the SUMMARY line and
 * the exit status leave out: a mapping kept to the end (a test's guard
 * page, a cache mapped once) is rarely a bug, and LeakSanitizer and
 * Valgrind do not look at mappings at all, so a suite that passes under them
 * must not fail for it. mapping_leaks_fail puts them back in the one leak
 * report, counted as leaks (Raphael's strictness). A block reachable only
 * from a leaked mapping is a heap leak (indirect) either way. Thread stacks
 * are never leaks (threads.c); the arguments of threads not yet running are
 * roots.
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
 *
 * The memory a check needs is mapped when it runs, which a program that
 * filled its address space (ulimit -v) had used up, even after freeing
 * everything (mdebug's heap keeps its reservations). So an address-space
 * reserve is taken at start-up (inaccessible, nothing committed) and given
 * back just before each check, for the check's own mappings; taken again
 * after a check that runs mid-run.
 *
 * The heap and the records of mappings are reached only through the scan's
 * contract (scan_contract.h: the scan, and md_scan_live_each,
 * md_scan_live_maps_each and md_scan_ignore outside a scan), the roots and
 * threads through their own functions (stop.h, roots.h, thread_stacks.h); this file knows no
 * block layout. runtime/src/layers.txt confines it so.
 */
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "base.h"
#include "exit.h"
#include "init.h"
#include "leak.h"
#include "lock.h"
#include "log.h"
#include "mappings.h"
#include "options.h"
#include "platform.h"
#include "print.h"
#include "report.h"
#include "roots.h"
#include "scan_contract.h"
#include "site.h"
#include "sort.h"
#include "stop.h"
#include "suppress.h"
#include "thread_stacks.h"

#define MAX_BLOCKS_SHOWN 8 /* per group */

enum kind { KIND_DIRECT, KIND_INDIRECT, KIND_LIVE, KIND_REACHABLE };
static const char *const kind_names[] = {"Direct leak of ", "Indirect leak of ",
                                         "", ""};
/* The group titles of the mapping note (leak_track's live ones: none). */
static const char *const note_kind_names[] = {
    "Mapping leak of ", "Indirect mapping leak of ", "", ""};

/* What one report lists: every leak (mapping_leaks_fail), or the blocks,
 * or the mappings in their note. */
enum section { SECTION_ALL, SECTION_BLOCKS, SECTION_MAPPINGS };

/* What a report says about one block. */
struct leak {
  md_origin_t origin;
  uintptr_t user;
  size_t size;
  size_t group_bytes;
  size_t group_count;
  uint32_t stack; /* allocation stack (depot id), 0 if none recorded */
  uint8_t kind;   /* enum kind */
  uint8_t op;     /* the allocating call (mmap, mremap: a mapping) */
  uint8_t prot, map_flags; /* a mapping's */
};

static bool is_mapping(const struct leak *l) {
  return md_op_family(l->op) == MD_FAMILY_MAP;
}
static const char *unit(const struct leak *l, size_t n) {
  return is_mapping(l) ? (n == 1 ? "mapping" : "mappings")
                       : (n == 1 ? "block" : "blocks");
}

/* "3 blocks", "1 mapping", "3 blocks and 1 mapping" into buf. */
static const char *count_phrase(char *buf, size_t size, size_t blocks,
                                size_t maps) {
  size_t n = 0;
  if (blocks || !maps)
    n = md_format(buf, size, "%zu block%s", blocks, blocks == 1 ? "" : "s");
  if (maps)
    md_format(buf + n, size - n, "%s%zu mapping%s", n ? " and " : "", maps,
              maps == 1 ? "" : "s");
  return buf;
}

static size_t count_mappings(const struct leak *v, size_t n, size_t *bytes) {
  size_t maps = 0;
  *bytes = 0;
  for (size_t i = 0; i < n; i++)
    if (is_mapping(&v[i])) {
      maps++;
      *bytes += v[i].size;
    }
  return maps;
}

/* ---- the scan (scan.c), with the other threads stopped ------------------- */

struct stopped {
  struct md_scan *scan;
  bool start_only, list_reachable, ok;
  int skip_tid;      /* at exit: the exiting thread */
  uintptr_t live_sp; /* ... whose stack is live from here up (0: none) */
  struct md_scan_result result;
};

static void visit_root(const struct md_region *r, void *arg) {
  struct stopped *st = arg;
  uintptr_t begin = r->begin;
  if (st->skip_tid && r->tid == st->skip_tid) {
    if (strcmp(r->kind, "registers") == 0)
      return;
    if (strcmp(r->kind, "stack") == 0) {
      /* Only the frames still live: from exit()'s caller up. */
      if (st->live_sp < r->begin || st->live_sp >= r->end)
        return;
      begin = st->live_sp;
    }
  }
  md_scan_region(st->scan, begin, r->end, strcmp(r->kind, "loader") == 0);
}

/* Runs with every other thread stopped: mark, classify, and take what the
 * report needs, marking the leaked blocks reported (a block may be freed,
 * its memory reused, as soon as the threads run again). */
static void scan_stopped(void *arg) {
  struct stopped *st = arg;
  st->ok = false;
  if (!(st->scan = md_scan_begin(st->start_only)))
    return;
  md_scan_ignored_roots(st->scan);
  md_world_roots(visit_root, st);
  md_threads_roots(visit_root, st);
  st->ok = md_scan_finish(st->scan, st->list_reachable, &st->result);
  md_scan_end(st->scan);
  st->scan = NULL;
}

static struct leak leak_of(const struct md_scan_block *b, enum kind kind) {
  return (struct leak){b->origin, b->user,       b->size,
                       0,         0,             b->stack,
                       (uint8_t)kind, b->alloc_op, b->map_prot,
                       b->map_flags};
}

/* ---- listing and reporting ----------------------------------------------- */

MD_COLD static bool by_group_key(const void *pa, const void *pb) {
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

MD_COLD static bool by_group_bytes(const void *pa, const void *pb) {
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
MD_COLD static size_t group(struct leak *v, size_t n, size_t *direct,
                            size_t *indirect) {
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
  size_t map_bytes, maps = count_mappings(v, n, &map_bytes);
  char where[512], counts[96];
  md_log("mdebug: still reachable at exit: %zu byte%s in %s", total,
         total == 1 ? "" : "s",
         count_phrase(counts, sizeof(counts), n - maps, maps));
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && same_group(&v[i], &v[i - 1]))
      continue;
    md_origin_describe(where, sizeof(where), v[i].origin);
    md_log("Still reachable: %zu byte%s in %zu %s allocated by %s at %s",
           v[i].group_bytes, v[i].group_bytes == 1 ? "" : "s",
           v[i].group_count, unit(&v[i], v[i].group_count),
           md_op_name(v[i].op), where);
  }
}

/* leak_track lists every live block, so it skips what libc, libstdc++ and
 * the loader keep for themselves (and says how much, system_skipped).
 * leak_check needs that excuse only for the loader (it keeps the dtv of
 * exited threads in cached stacks no root reaches): what libc and libstdc++
 * keep, they still point to, so a getline buffer or asprintf string the
 * program lost is reported. Blocks of one site come in runs, so the last
 * verdict is kept. */
enum excuse { KEPT, SYSTEM, SUPPRESSED };
static enum excuse excused(md_origin_t origin, md_origin_t *last_origin,
                           enum excuse *last_verdict) {
  if (origin != *last_origin || !*last_origin) {
    *last_origin = origin;
    *last_verdict = md_opt.leak_track && md_origin_is_system(origin) ? SYSTEM
                    : (!md_opt.leak_track && md_origin_is_loader(origin)) ||
                            md_suppressed(origin)
                        ? SUPPRESSED
                        : KEPT;
  }
  return *last_verdict;
}

/* What drop_excused left out as the system's own, for leak_track's report. */
static struct { size_t blocks, bytes, maps; } system_skipped;

/* Drops the excused records of v[0..n); returns how many are left. */
static size_t drop_excused(struct leak *v, size_t n) {
  md_origin_t last_origin = 0;
  enum excuse last_verdict = KEPT;
  size_t kept = 0;
  memset(&system_skipped, 0, sizeof(system_skipped));
  for (size_t i = 0; i < n; i++) {
    enum excuse e = excused(v[i].origin, &last_origin, &last_verdict);
    if (e == KEPT) {
      v[kept++] = v[i];
    } else if (e == SYSTEM) {
      if (is_mapping(&v[i]))
        system_skipped.maps++;
      else
        system_skipped.blocks++;
      system_skipped.bytes += v[i].size;
    }
  }
  return kept;
}

/* leak_track: the line that says what drop_excused left out. */
MD_COLD static size_t system_skipped_line(char *line, size_t size) {
  char counts[96];
  count_phrase(counts, sizeof(counts), system_skipped.blocks,
               system_skipped.maps);
  return md_format(line, size,
                   "mdebug: leak_track: %zu byte%s in %s allocated by the C "
                   "library, libstdc++ and the dynamic loader for themselves "
                   "are not listed",
                   system_skipped.bytes, system_skipped.bytes == 1 ? "" : "s",
                   counts);
}

/* The mapping note's first line: what it lists, and that the exit status
 * leaves it out. */
static void note_header(const struct leak *v, size_t total_bytes,
                        size_t direct, size_t indirect, bool at_exit) {
  const char *s = total_bytes == 1 ? "" : "s";
  const char *m = direct + indirect == 1 ? "" : "s";
  if (v[0].kind == KIND_LIVE)
    md_report_line("mdebug: %zu byte%s in %zu mapping%s still mapped at exit "
                   "(leak_track); not counted in the exit status "
                   "(mapping_leaks_fail counts them)",
                   total_bytes, s, direct + indirect, m);
  else
    md_report_line("mdebug: %zu byte%s leaked in %zu mapping%s (%zu direct, "
                   "%zu indirect)%s; not counted in the exit status "
                   "(mapping_leaks_fail counts them)",
                   total_bytes, s, direct + indirect, m, direct, indirect,
                   at_exit ? "" : " so far");
}

/* Reports the list (sorted here) as one section; returns the number of
 * blocks and mappings listed. */
static size_t report(struct leak *v, size_t n,
                     const struct md_scan_result *reach, bool at_exit,
                     enum section section) {
  size_t direct, indirect;
  if (!n)
    return 0;
  size_t total_bytes = group(v, n, &direct, &indirect);
  size_t map_bytes, maps = count_mappings(v, n, &map_bytes);
  char counts[96], reachable[160];
  count_phrase(counts, sizeof(counts), n - maps, maps);
  bool note = section == SECTION_MAPPINGS;
  if (!md_report_begin(note ? MD_ERR_MAPPING_LEAK : MD_ERR_LEAK))
    return n;
  if (note) {
    note_header(v, total_bytes, direct, indirect, at_exit);
  } else if (v[0].kind == KIND_LIVE) {
    md_report_line("mdebug: %zu byte%s leaked in %s (leak_track: every %s "
                   "still allocated at exit)",
                   total_bytes, total_bytes == 1 ? "" : "s", counts,
                   maps ? "block and mapping" : "block");
    if (system_skipped.blocks || system_skipped.maps) {
      char line[256];
      system_skipped_line(line, sizeof(line));
      md_report_line("%s", line);
    }
  } else {
    size_t rn = 0;
    if (reach->reachable_blocks || !reach->reachable_maps)
      rn = md_format(reachable, sizeof(reachable), "%zu block%s (%zu bytes)",
                     reach->reachable_blocks,
                     reach->reachable_blocks == 1 ? "" : "s",
                     reach->reachable_bytes);
    if (reach->reachable_maps)
      md_format(reachable + rn, sizeof(reachable) - rn,
                "%s%zu mapping%s (%zu bytes)", rn ? " and " : "",
                reach->reachable_maps, reach->reachable_maps == 1 ? "" : "s",
                reach->reachable_map_bytes);
    md_report_line("mdebug: %zu byte%s leaked in %s (%zu direct, %zu "
                   "indirect)%s; %s still reachable",
                   total_bytes, total_bytes == 1 ? "" : "s", counts, direct,
                   indirect, at_exit ? "" : " so far", reachable);
  }
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
      md_report_line("%s%zu byte%s in %zu %s:",
                     (note ? note_kind_names : kind_names)[l->kind],
                     l->group_bytes, l->group_bytes == 1 ? "" : "s",
                     l->group_count, unit(l, l->group_count));
      md_report_origin("allocated", l->op, l->origin);
      md_report_stack("Backtrace at time of allocation:", l->stack);
      shown = 0;
    }
    char how[64];
    if (++shown > MAX_BLOCKS_SHOWN) {
      if (shown == MAX_BLOCKS_SHOWN + 1)
        md_report_line("  ... %zu more %s from this site",
                       l->group_count - MAX_BLOCKS_SHOWN,
                       unit(l, l->group_count - MAX_BLOCKS_SHOWN));
    } else if (is_mapping(l)) {
      md_mapping_describe(how, sizeof(how), l->prot, l->map_flags);
      md_report_line("+++ %s leaked mapping of %zu bytes at %p (%s) (leak %zu "
                     "of %zu)",
                     md_progname(), l->size, (void *)l->user, how, i + 1, n);
    } else {
      md_report_line("+++ %s leaked block of size %zu at %p (leak %zu of %zu)",
                     md_progname(), l->size, (void *)l->user, i + 1, n);
    }
  }
  md_report_end();
  if (note)
    return n;
  md_report_add_leaks(n - maps, total_bytes - map_bytes);
  if (maps)
    md_report_add_leaked_mappings(maps, map_bytes);
  return n;
}

/* Reports v[0..n): one report, or (without mapping_leaks_fail) the blocks'
 * report and then the mappings' note. Returns how many were listed. */
static size_t report_leaks(struct leak *v, size_t n,
                           const struct md_scan_result *reach, bool at_exit) {
  if (md_opt.mapping_leaks_fail)
    return report(v, n, reach, at_exit, SECTION_ALL);
  size_t blocks = 0; /* the blocks to the front (each report sorts its own) */
  for (size_t i = 0; i < n; i++)
    if (!is_mapping(&v[i])) {
      struct leak t = v[blocks];
      v[blocks++] = v[i];
      v[i] = t;
    }
  return report(v, blocks, reach, at_exit, SECTION_BLOCKS) +
         report(v + blocks, n - blocks, reach, at_exit, SECTION_MAPPINGS);
}

/* A check that could not run is an error (counted, and it sets the exit
 * status): a clean summary would say the program leaks nothing. */
static void cannot_run(const char *why) {
  if (!md_report_begin(MD_ERR_LEAK_CHECK))
    return;
  md_report_line("mdebug: leak check could not run: %s", why);
  md_report_end();
}

/* ---- the reserve ---------------------------------------------------------- */

#define RESERVE_BYTES ((size_t)64 << 20)
static void *reserve;
static size_t reserve_bytes;

/* RESERVE_BYTES, or a sixteenth of an address-space limit if less. */
static void take_reserve(void) {
  if (reserve || !md_opt.leak_check || md_opt.leak_track)
    return;
  size_t bytes = RESERVE_BYTES;
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      rl.rlim_cur / 16 < bytes)
    bytes = (size_t)rl.rlim_cur / 16 & ~(size_t)4095;
  void *p = bytes ? mmap(NULL, bytes, PROT_NONE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                  : MAP_FAILED;
  if (p != MAP_FAILED) {
    reserve = p;
    reserve_bytes = bytes;
    md_idle_reserve_add(bytes); /* vm_threshold leaves it out */
  }
}

static void give_reserve(void) {
  if (reserve) {
    munmap(reserve, reserve_bytes);
    md_idle_reserve_sub(reserve_bytes);
  }
  reserve = NULL;
}

void md_leak_init(void) { take_reserve(); }

/* One check at a time. Nothing here holds a pointer to a block where the
 * scan looks (this stack mid-run, our static data): the scan's state and
 * its records are mmap'ed. */
static md_lock_t check_lock = MD_LOCK_INIT;

/* A check another thread of the parent was running does not go on in the
 * child; it was not mid-stop or mid-scan (fork's prepare takes the locks
 * those hold, lifecycle.def), so only its lock is left. */
void md_leak_atfork_child(void) { md_lock_reset(&check_lock); }

/* The reachability check. Returns the number of leaked blocks reported. */
static size_t check_unreachable(bool at_exit) {
  md_suppress_load();
  md_lock(&check_lock);
  give_reserve(); /* for the mappings of the stop, the scan and the report */
  struct stopped st;
  memset(&st, 0, sizeof(st));
  st.start_only = md_opt.leak_start_pointers_only;
  st.list_reachable = at_exit && md_opt.leak_show_reachable;
  if (at_exit) {
    st.skip_tid = md_gettid();
    st.live_sp = md_exit_live_sp();
  }
  char why[256];
  const char *failure = NULL;
  md_scan_heap_lock(); /* no stopped thread may hold its locks */
  if (!md_world_stop(scan_stopped, &st)) {
    md_format(why, sizeof(why), "%s", md_world_stop_failure());
    failure = why;
  } else if (!st.ok) {
    failure = "not enough memory for the scan (mmap failed)";
  }
  md_scan_heap_unlock();
  size_t reported = 0;
  if (!failure) {
    size_t n = 0, r = 0, bytes = st.result.count * sizeof(struct leak) + 1;
    struct leak *leaks = md_mmap(bytes), *reach = md_mmap(bytes);
    for (size_t i = 0; leaks && reach && i < st.result.count; i++) {
      const struct md_scan_block *b = &st.result.blocks[i];
      if (b->kind == MD_SCAN_REACHABLE)
        reach[r++] = leak_of(b, KIND_REACHABLE);
      else
        leaks[n++] = leak_of(b, b->kind == MD_SCAN_INDIRECT ? KIND_INDIRECT
                                                            : KIND_DIRECT);
    }
    if (leaks && reach) {
      n = drop_excused(leaks, n);
      reported = report_leaks(leaks, n, &st.result, at_exit);
      if (st.list_reachable)
        list_reachable(reach, r);
    } else {
      failure = "not enough memory for the report (mmap failed)";
    }
    md_munmap(leaks, bytes);
    md_munmap(reach, bytes);
  }
  md_scan_result_free(&st.result);
  if (!at_exit)
    take_reserve();
  md_unlock(&check_lock);
  if (failure)
    cannot_run(failure);
  return reported;
}

/* ---- leak_track: every block still allocated ----------------------------- */

struct live_list {
  struct leak *items;
  size_t count, capacity;
};

static void count_node(const struct md_scan_node *n, void *arg) {
  (void)n;
  (*(size_t *)arg)++;
}

/* What the report needs is taken in the walk, inside the callback (a block
 * freed meanwhile may be listed, as at any moment of a walk). Blocks and
 * mappings kept on purpose (mdebug_ignore), reported already, or
 * inherited from the parent are not. */
static void take_live(const struct md_scan_node *n, void *arg) {
  struct live_list *l = arg;
  if (l->count == l->capacity ||
      (n->flags & (MD_SCAN_IGNORED | MD_SCAN_EXCUSED)))
    return;
  struct md_scan_block b;
  memset(&b, 0, sizeof(b));
  md_scan_describe(n, &b);
  l->items[l->count++] = (struct leak){
      b.origin, n->begin, n->size, 0, 0, b.stack, KIND_LIVE, b.alloc_op,
      b.map_prot, b.map_flags};
}

static void report_live(void) {
  size_t expected = 0, nmaps = 0;
  md_scan_live_each(count_node, &expected);
  md_scan_live_maps_each(count_node, &nmaps);
  if (expected + nmaps == 0)
    return;
  md_suppress_load();
  /* Room for blocks and mappings made meanwhile; the blocks leave the
   * mappings theirs. */
  struct live_list l = {0, 0, expected + expected / 4 + 64 + nmaps + 16};
  size_t bytes = l.capacity * sizeof(struct leak);
  l.items = md_mmap(bytes);
  if (!l.items) {
    md_log("mdebug: not enough memory to list %zu live blocks at exit",
           expected + nmaps);
    return;
  }
  l.capacity -= nmaps + 16;
  md_scan_live_each(take_live, &l);
  l.capacity += nmaps + 16;
  md_scan_live_maps_each(take_live, &l);
  struct md_scan_result none;
  memset(&none, 0, sizeof(none));
  size_t kept = drop_excused(l.items, l.count);
  report_leaks(l.items, kept, &none, true);
  if (!kept && (system_skipped.blocks || system_skipped.maps)) {
    char line[256];
    system_skipped_line(line, sizeof(line));
    md_log("%s", line);
  }
  md_munmap(l.items, bytes);
}

/* ---- the interface ------------------------------------------------------- */

void md_leak_report_at_exit(void) {
  if (md_opt.leak_track)
    report_live();
  else if (md_opt.leak_check)
    check_unreachable(true);
}

MD_COLD size_t md_leak_check_now(void) {
  md_ensure_init();
  return check_unreachable(false);
}

void md_leak_ignore(const void *p) {
  md_ensure_init();
  if (p && !md_scan_ignore(p))
    md_log("mdebug: mdebug_ignore(%p): not a live block allocated by mdebug; "
           "ignored", p);
}
