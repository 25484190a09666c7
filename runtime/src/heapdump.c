/* heapdump.c - the live heap as malloc debug lists it: records of
 * (size, allocation stack, count), merged and sorted as malloc debug sorts
 * them, written as an "Android Native Heap Dump v1.2" file (signal, exit,
 * mdebug_dump_heap()) or handed to get_malloc_leak_info (leakinfo.c).
 * mdebug's extensions to the file: after a record (and its bt_info line), a
 * "  sites" line names the instrumented allocation sites of its blocks,
 * with the allocated type where the source says it, and how many blocks
 * each holds (docs/stacks-and-dumps.md, heap dumps); between the records and MAPS, a
 * section (usage.c) with the totals by category and site, the mappings and
 * the thread stacks. Readers of malloc debug's format skip both. Names
 * (module paths, functions) in bt_info are md_escape'd, with '"', '{' and
 * '}' as \xNN too; the sites line's strings are %XX-escaped as in heap
 * profiles: no name can break a line or a field.
 *
 * Runs in a normal thread context (the signal service thread, the exit
 * handler, a program's call), never inside a signal handler. Reads block
 * headers only while the table holding the block is locked. Never
 * allocates through malloc: the record array is mmap'ed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "base.h"
#include "heap.h"
#include "heapdump.h"
#include "init.h"
#include "lock.h"
#include "log.h"
#include "options.h"
#include "origin.h"
#include "outfile.h"
#include "platform.h"
#include "print.h"
#include "profile_format.h"
#include "scan_contract.h"
#include "site.h"
#include "sort.h"
#include "stacks.h"
#include "usage.h"

/* Cold code (heap dumps only): base.h. */
#pragma clang section text = "mdebug_cold"

struct collect {
  struct md_live_records *r;
  size_t capacity;
  bool only_with_stack;
};

static void take(const struct md_block *b, void *arg) {
  struct collect *c = arg;
  uint32_t stack = b->stacks ? b->stacks->alloc_stack : 0;
  if (c->only_with_stack && stack == 0)
    return;
  if (c->r->n == c->capacity)
    return; /* blocks allocated since the count: left out */
  size_t frames;
  md_depot_get(stack, &frames);
  c->r->v[c->r->n++] = (struct md_live_record){
      b->size ? b->size : 1, 1, stack, (uint32_t)frames, (uintptr_t)b->user,
      b->meta->alloc_origin};
}

/* malloc debug's order: size descending, records with a stack first, longer
 * stacks first; then (ours) same stacks together, so that every (size,
 * stack) pair merges into one record; then by address. */
static bool before(const void *pa, const void *pb) {
  const struct md_live_record *a = pa, *b = pb;
  if (a->size != b->size)
    return a->size > b->size;
  if ((a->frames != 0) != (b->frames != 0))
    return a->frames != 0;
  if (a->frames != b->frames)
    return a->frames > b->frames;
  if (a->stack != b->stack)
    return a->stack < b->stack;
  if (a->origin != b->origin)
    return a->origin < b->origin;
  return a->ptr < b->ptr;
}

bool md_live_records_collect(struct md_live_records *r, bool only_with_stack,
                             bool merge) {
  memset(r, 0, sizeof(*r));
  struct md_heap_stats st;
  md_heap_stats(&st);
  size_t capacity = st.live_blocks + st.live_blocks / 4 + 64;
  r->bytes = capacity * sizeof(struct md_live_record);
  r->v = md_mmap(r->bytes);
  if (!r->v)
    return false;
  struct collect c = {r, capacity, only_with_stack};
  md_heap_for_each(1u << MD_STATE_LIVE, take, &c);
  md_sort(r->v, r->n, sizeof(r->v[0]), before);
  if (!merge)
    return true;
  size_t out = 0;
  for (size_t i = 0; i < r->n; i++) {
    if (out > 0 && r->v[out - 1].size == r->v[i].size &&
        r->v[out - 1].stack == r->v[i].stack) {
      r->v[out - 1].num++;
      continue;
    }
    r->v[out++] = r->v[i];
  }
  r->n = out;
  return true;
}

void md_live_records_free(struct md_live_records *r) {
  md_munmap(r->v, r->bytes);
  memset(r, 0, sizeof(*r));
}

/* ---- the v1.2 file ------------------------------------------------------ */

static void write_bt_info(struct md_out *o, const uintptr_t *pcs, size_t n) {
  char text[4 * MD_PATH_MAX];
  md_out_printf(o, "  bt_info");
  for (size_t i = 0; i < n; i++) {
    struct md_symbol sym;
    md_symbolize(pcs[i], &sym);
    /* Names escaped as reports escape them (and '"', '{', '}'): a module
     * path or symbol holding a newline cannot start a record of its own. */
    md_escape_field(text, sizeof(text), sym.module ? sym.module : "");
    md_out_printf(o, " {\"%s\" %lx", text, (unsigned long)sym.rel_pc);
    if (sym.function) {
      md_escape_field(text, sizeof(text), sym.function);
      md_out_printf(o, " \"%s\" %zx}", text, sym.offset);
    } else
      md_out_printf(o, " \"\" 0}");
  }
  md_out_printf(o, "\n");
}

/* " {COUNT ID OP FILE LINE COLUMN FUNCTION TYPE}": one instrumented site
 * of a record's blocks (strings as in heap profiles: %XX-escaped, "-" for
 * none). */
static void write_site(struct md_out *o, md_origin_t origin, size_t count) {
  const struct mdebug_site *s = (const struct mdebug_site *)origin;
  char text[3 * MD_PROFILE_STRING_MAX];
  md_out_printf(o, " {%zu %lx", count, (unsigned long)s->id);
  const char *strings[] = {md_op_name(s->op), s->file, s->function, s->type};
  for (int k = 0; k < 4; k++) {
    size_t n = md_profile_escape(text, strings[k]);
    md_out_write(o, " ", 1);
    md_out_write(o, text, n); /* longer than md_out_printf's lines */
    if (k == 1)
      md_out_printf(o, " %u %u", s->line, s->column);
  }
  md_out_printf(o, "}");
}

/* Blocks [first, end) of r (unmerged, sorted by origin within a record):
 * their instrumented sites, if any. */
static void write_sites(struct md_out *o, const struct md_live_records *r,
                        size_t first, size_t end) {
  bool any = false;
  for (size_t i = first; i < end;) {
    size_t j = i;
    while (j < end && r->v[j].origin == r->v[i].origin)
      j++;
    md_origin_t origin = md_origin_of(r->v[i].origin);
    if (origin && !md_origin_is_pc(origin)) {
      if (!any)
        md_out_printf(o, "  sites");
      any = true;
      write_site(o, origin, j - i);
    }
    i = j;
  }
  if (any)
    md_out_printf(o, "\n");
}

static bool same_record(const struct md_live_record *a,
                        const struct md_live_record *b) {
  return a->size == b->size && a->stack == b->stack;
}

/* r: one record a block; blocks of the same size and stack are written as
 * one record, as malloc debug merges them. */
static void write_dump(struct md_out *o, const struct md_live_records *r) {
  size_t total = 0, records = 0;
  for (size_t i = 0; i < r->n; i++) {
    total += r->v[i].size;
    records += i == 0 || !same_record(&r->v[i - 1], &r->v[i]);
  }
  md_out_printf(o, "Android Native Heap Dump v1.2\n\n");
  md_out_printf(o, "Build fingerprint: 'unknown'\n\n");
  md_out_printf(o, "Total memory: %zu\n", total);
  md_out_printf(o, "Allocation records: %zu\n", records);
  md_out_printf(o, "Backtrace size: %zu\n\n", md_backtrace_frames());
  for (size_t i = 0, end; i < r->n; i = end) {
    const struct md_live_record *rec = &r->v[i];
    for (end = i + 1; end < r->n && same_record(rec, &r->v[end]); end++) {
    }
    md_out_printf(o, "z 0  sz %8zu  num    %zu  bt", rec->size, end - i);
    size_t n;
    const uintptr_t *pcs = md_depot_get(rec->stack, &n);
    for (size_t k = 0; k < n; k++)
      md_out_printf(o, " %lx", (unsigned long)pcs[k]);
    md_out_printf(o, "\n");
    if (md_opt.backtrace_full && n)
      write_bt_info(o, pcs, n);
    write_sites(o, r, i, end);
  }
  struct md_usage u; /* mdebug's extension: by category and site */
  if (md_usage_collect(&u)) {
    md_usage_write_dump(o, &u);
    md_usage_free(&u);
  }
  md_out_printf(o, "MAPS\n");
  if (!md_out_copy_file(o, "/proc/self/maps"))
    md_out_printf(o, "Could not open /proc/self/maps\n");
  md_out_printf(o, "END\n");
}

static md_lock_t dump_lock = MD_LOCK_INIT;

int md_heap_dump(const char *path) {
  md_ensure_init();
  struct md_live_records r;
  struct md_out o;
  int err = 0;
  md_lock(&dump_lock);
  if (!md_out_open(&o, path)) {
    err = errno;
    if (o.refusal[0])
      md_log("mdebug: %s", o.refusal);
    else
      md_log("mdebug: Unable to create file: %s: %s", path, strerror(err));
  } else {
    md_log("mdebug: Dumping to file: %s", path);
    if (!md_live_records_collect(&r, false, false)) {
      err = ENOMEM;
      md_log("mdebug: not enough memory to list the live blocks for %s", path);
    } else {
      write_dump(&o, &r);
      md_live_records_free(&r);
    }
    if (!md_out_close(&o) && !err) {
      err = errno;
      md_log("mdebug: writing %s failed: %s", path, strerror(err));
    }
  }
  md_unlock(&dump_lock);
  errno = err;
  return err ? -1 : 0;
}

/* A dump another thread of the parent was writing does not go on here. */
MD_HOT_IN_COLD_FILE void md_heapdump_atfork_child(void) {
  md_lock_reset(&dump_lock);
}

/* PREFIX.PID.txt (signal) or PREFIX.PID.exit.txt (exit). */
void md_heap_dump_auto(bool at_exit) {
  char path[MD_PATH_MAX + 32];
  const char *prefix = md_opt.backtrace_dump_prefix[0]
                           ? md_opt.backtrace_dump_prefix
                           : "/tmp/backtrace_heap";
  md_format(path, sizeof(path), "%s.%d%s", prefix, md_getpid(),
            at_exit ? ".exit.txt" : ".txt");
  md_heap_dump(path);
}
