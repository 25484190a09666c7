/* unwind.c - the calling thread's stack, by frame pointers: fast enough for
 * every allocation, and safe on any stack. It reads only inside the thread's
 * own stack mapping, follows only aligned, strictly increasing frames, and
 * stops at the first frame that breaks a rule (code built without frame
 * pointers ends the walk early, never faults). The runtime's frames are left
 * out wherever they are: this copy's own code (the sections mdebug_text and
 * mdebug_cold, base.h, whose __start/__stop symbols each module has for
 * itself) and that of every inert copy that announced itself (copies.c,
 * each of its sections a range), so the first pc is where the program
 * called in. A walk tests a frame against mdebug_text inline; the cold
 * section (error reports) is classify's. Each pc is a return address
 * minus one (inside the call instruction), as malloc debug stores frames,
 * so it names the calling line.
 *
 * Every return address must also lie in a loaded module's executable
 * segment (a table built with dl_iterate_phdr at start-up and again when an
 * instrumented module is loaded): the saved frame pointer of code built
 * without frame pointers (libc's call of main) is often a stack address
 * whose neighbour is data, not a return address.
 *
 * Cost: a frame whose pc lies in the last program frame's code range (a
 * module's executable segment cut free of the runtime's code) takes one
 * range test; the table is searched only when the pc leaves that range,
 * and the walk starts with the range beside this copy's own text, where the
 * caller of malloc usually is.
 *
 * Never allocates; reads /proc/self/maps (procmaps.c: raw system calls, a
 * buffer on the stack), once per thread (and again when the stack pointer
 * leaves the mapping it found).
 */
#define _GNU_SOURCE
#include <link.h>

#include "base.h"
#include "lock.h"
#include "platform_linux.h"
#include "scan_contract.h"
#include "stacks.h"

/* Cold code (stacks: the backtrace and sampling options, and reports): base.h.
 */
#pragma clang section text = "mdebug_cold"

/* The stack mapping holding this thread's stack pointer, cached. */
static __thread uintptr_t stack_lo __attribute__((tls_model("initial-exec")));
static __thread uintptr_t stack_hi __attribute__((tls_model("initial-exec")));

/* Executable segments, sorted; replaced whole (never freed, never changed
 * once published), so readers need no lock. */
#define MAX_RANGES 1024
struct code_ranges {
  size_t n;
  uintptr_t lo[MAX_RANGES], hi[MAX_RANGES];
  /* The largest part of this copy's module's executable segments that
   * holds none of its code (both sections; the cold one is a segment of
   * its own, cold_begin.c): where the program's first frame (the caller
   * of malloc) usually is, so the walk starts with it as its last program
   * range. */
  uintptr_t seed_lo, seed_size;
};
static struct code_ranges *code;

/* Other copies' code (copies.c): appended, never removed (every copy is
 * linked -z nodelete); readers take the count, then those entries. */
#define MAX_COPIES 16
static struct { uintptr_t lo, hi; } copies[MAX_COPIES];
static unsigned copy_count;
static md_lock_t copies_lock = MD_LOCK_INIT;
/* Fork (lifecycle.def): an append the fork caught half done in another
 * thread (a dlopen) does not go on in the child. */
MD_HOT_IN_COLD_FILE void md_unwind_atfork_child(void) {
  md_lock_reset(&copies_lock);
}

void md_unwind_add_runtime_code(uintptr_t begin, uintptr_t end) {
  md_lock(&copies_lock);
  unsigned n = copy_count;
  bool known = false;
  for (unsigned i = 0; i < n; i++)
    known |= copies[i].lo == begin;
  if (!known && n < MAX_COPIES && begin < end) {
    copies[n].lo = begin;
    copies[n].hi = end;
    __atomic_store_n(&copy_count, n + 1, __ATOMIC_RELEASE);
  }
  md_unlock(&copies_lock);
}

static bool in_other_copy(uintptr_t pc, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    if (pc >= copies[i].lo && pc < copies[i].hi)
      return true;
  return false;
}

static void add_range(struct code_ranges *r, uintptr_t lo, uintptr_t hi) {
  if (lo >= hi || r->n >= MAX_RANGES)
    return;
  size_t k = r->n++;
  for (; k > 0 && r->lo[k - 1] > lo; k--) { /* insertion sort */
    r->lo[k] = r->lo[k - 1];
    r->hi[k] = r->hi[k - 1];
  }
  r->lo[k] = lo;
  r->hi[k] = hi;
}

/* An executable segment [lo, hi) goes in as its parts that hold none of
 * this copy's code (its two sections), so that a range found for a pc
 * needs no cutting; the largest part of this copy's own module's segments
 * is the seed. */
static void add_segment(struct code_ranges *r, uintptr_t lo, uintptr_t hi,
                        bool own) {
  uintptr_t cut_lo[2] = {(uintptr_t)__start_mdebug_text,
                         (uintptr_t)__start_mdebug_cold};
  uintptr_t cut_hi[2] = {(uintptr_t)__stop_mdebug_text,
                         (uintptr_t)__stop_mdebug_cold};
  if (cut_lo[1] < cut_lo[0]) { /* in address order */
    uintptr_t a = cut_lo[0], b = cut_hi[0];
    cut_lo[0] = cut_lo[1], cut_hi[0] = cut_hi[1];
    cut_lo[1] = a, cut_hi[1] = b;
  }
  uintptr_t from = lo;
  for (unsigned i = 0; i <= 2; i++) {
    uintptr_t to = i < 2 && cut_lo[i] < hi ? cut_lo[i] : hi;
    if (to > from) {
      add_range(r, from, to);
      uintptr_t seed = from < 4096 ? 4096 : from;
      if (own && to > seed && to - seed > r->seed_size) {
        r->seed_lo = seed;
        r->seed_size = to - seed;
      }
    }
    if (i < 2 && cut_hi[i] > from)
      from = cut_hi[i];
  }
}

static int add_module(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct code_ranges *r = arg;
  uintptr_t text = (uintptr_t)__start_mdebug_text;
  bool own = false; /* this copy's module */
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    own |= ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && text >= lo &&
           text - lo < ph->p_memsz;
  }
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    add_segment(r, lo, lo + ph->p_memsz, own);
  }
  return 0;
}

/* How many ranges start at or below pc: pc is code if that is k > 0 and
 * pc < r->hi[k - 1]. */
static size_t ranges_upto(const struct code_ranges *r, uintptr_t pc) {
  size_t l = 0, h = r->n;
  while (l < h) {
    size_t mid = (l + h) / 2;
    if (r->lo[mid] <= pc)
      l = mid + 1;
    else
      h = mid;
  }
  return l;
}

void md_unwind_refresh_code(void) {
  struct code_ranges *r = md_mmap(sizeof(*r));
  if (!r)
    return; /* keep the old table */
  dl_iterate_phdr(add_module, r);
  __atomic_store_n(&code, r, __ATOMIC_RELEASE);
}

/* A frame's pc outside the last program range: */
enum pc_kind { PC_NOT_CODE, PC_RUNTIME, PC_PROGRAM };

/* The code range holding pc, cut so that it holds no runtime code: [lo,
 * end) clipped to the side of [a, b) where pc is. */
static void clip(uintptr_t pc, uintptr_t a, uintptr_t b, uintptr_t *lo,
                 uintptr_t *end) {
  if (a >= *end || b <= *lo)
    return;
  if (pc < a)
    *end = a;
  else
    *lo = b;
}

/* Taken only when pc leaves the last program range and the runtime's own
 * text: this copy's cold code and another copy's code are the runtime's
 * (PC_RUNTIME), a pc inside a module's executable segment the program's,
 * with [*lo_out, *end_out) that segment's part around pc holding no runtime
 * code, so that the walk's one
 * range test also says "not the runtime". No table yet (before start-up):
 * any pc from 4096 on. */
static MD_NOINLINE enum pc_kind
classify(const struct code_ranges *r, uintptr_t pc, unsigned others,
         uintptr_t *lo_out, uintptr_t *end_out) {
  if (pc < 4096)
    return PC_NOT_CODE;
  if (others && in_other_copy(pc, others))
    return PC_RUNTIME;
  uintptr_t lo = 4096, end = UINTPTR_MAX;
  if (r) {
    /* The ranges hold none of this copy's code (add_segment): a pc in
     * none is its cold code (its text the walk tested) or not code. */
    size_t l = ranges_upto(r, pc);
    if (l == 0 || pc >= r->hi[l - 1])
      return md_runtime_code(pc) ? PC_RUNTIME : PC_NOT_CODE;
    if (r->lo[l - 1] > lo)
      lo = r->lo[l - 1];
    end = r->hi[l - 1];
  } else {
    if (md_runtime_code(pc))
      return PC_RUNTIME;
    clip(pc, (uintptr_t)__start_mdebug_text, (uintptr_t)__stop_mdebug_text,
         &lo, &end);
    clip(pc, (uintptr_t)__start_mdebug_cold, (uintptr_t)__stop_mdebug_cold,
         &lo, &end);
  }
  for (unsigned i = 0; i < others; i++)
    clip(pc, copies[i].lo, copies[i].hi, &lo, &end);
  *lo_out = lo;
  *end_out = end;
  return PC_PROGRAM;
}

/* The mapping of /proc/self/maps holding sp. The buffer is on the stack
 * (this may run in a crash handler): 4 KiB, as before the reader was
 * shared. */
static MD_NOINLINE void find_stack(uintptr_t sp) {
  stack_lo = stack_hi = 0;
  char buf[4096];
  struct md_maps it;
  struct md_maps_entry m;
  if (md_maps_open(&it, "/proc/self/maps", buf, sizeof(buf))) {
    while (md_maps_next(&it, &m)) {
      if (sp >= m.start && sp < m.end) {
        stack_lo = m.start;
        stack_hi = m.end;
        break;
      }
    }
  }
  md_maps_close(&it);
}

/* The frames from fp on, inside the stack mapping holding sp, into pcs[n..
 * max); returns the new count. Per frame, the rules cost a few unsigned
 * compares: fp is checked against sp once (each next frame must be higher
 * than the last); a pc inside the last program frame's code range (which
 * classify cut free of runtime code) is code and the program's by one
 * compare; outside it, the runtime's own text is tried (code, left out),
 * then classify. */
static MD_ALWAYS_INLINE size_t walk(uintptr_t fp, uintptr_t sp, uintptr_t *pcs,
                                    size_t n, size_t max, uint64_t *hash) {
  uint64_t h = MD_STACK_HASH_INIT;
  if (MD_UNLIKELY(sp < stack_lo || sp >= stack_hi))
    find_stack(sp);
  uintptr_t hi = stack_hi;
  if (hi < 16 || fp < sp) {
    *hash = h;
    return n;
  }
  /* The highest aligned frame whose two words fit. */
  uintptr_t top = (hi - 16) & ~(uintptr_t)7;
  const struct code_ranges *ranges = __atomic_load_n(&code, __ATOMIC_ACQUIRE);
  uintptr_t text_lo = (uintptr_t)__start_mdebug_text;
  uintptr_t text_size = (uintptr_t)__stop_mdebug_text - text_lo;
  unsigned others = __atomic_load_n(&copy_count, __ATOMIC_ACQUIRE);
  /* The last program range; the seed is cut free of this copy's text only,
   * so it serves while no other copy is known. */
  uintptr_t code_lo = 0, code_size = 0;
  if (ranges && !others) {
    code_lo = ranges->seed_lo - 1; /* tested against pc - 1 */
    code_size = ranges->seed_size;
  }
  /* Each frame's rules are tested on the next before it is followed: a
   * frame is read only when aligned, within the mapping and above the
   * last (the first one here). */
  uintptr_t *out = pcs + n, *end = pcs + max;
  if (out >= end || (fp & 7) != 0 || fp > top) {
    *hash = h;
    return n;
  }
  uintptr_t top_rot = top >> 3;
  for (;;) {
    uintptr_t next = ((const uintptr_t *)fp)[0];
    uintptr_t pc = ((const uintptr_t *)fp)[1];
    uintptr_t call = pc - 1; /* the call, as malloc debug stores it */
    *out = call; /* ahead of the test: kept if the program's */
    if (MD_LIKELY(call - code_lo < code_size)) {
      out++;
      h = md_stack_hash_step(h, pc);
    } else if (pc - text_lo >= text_size) { /* not this copy's code */
      uintptr_t lo, hi_end;
      enum pc_kind kind = classify(ranges, pc, others, &lo, &hi_end);
      if (kind == PC_NOT_CODE)
        break;
      if (kind == PC_PROGRAM) {
        code_lo = lo - 1; /* tested against pc - 1 */
        code_size = hi_end - lo;
        out++;
        h = md_stack_hash_step(h, pc);
      }
    }
    /* next > top or not aligned, in one compare: rotated, its low 3 bits
     * are the top ones. */
    if (next <= fp || __builtin_rotateright64(next, 3) > top_rot ||
        out >= end)
      break;
    fp = next;
  }
  *hash = h;
  return (size_t)(out - pcs);
}

MD_NOINLINE size_t md_unwind(uintptr_t *pcs, size_t max) {
  uintptr_t fp = (uintptr_t)__builtin_frame_address(0);
  uint64_t h;
  return walk(fp, fp, pcs, 0, max, &h);
}

MD_NOINLINE size_t md_unwind_hashed(uintptr_t *pcs, size_t max,
                                    uintptr_t fp, uint64_t *hash) {
  uintptr_t own = (uintptr_t)__builtin_frame_address(0);
  return walk(fp ? fp : own, own, pcs, 0, max, hash);
}

size_t md_unwind_from(uintptr_t pc, uintptr_t fp, uintptr_t sp, uintptr_t *pcs,
                      size_t max) {
  if (!max)
    return 0;
  size_t n = 0;
  if (!md_unwind_in_runtime(pc))
    pcs[n++] = pc;
  uint64_t h;
  size_t walked = walk(fp, sp, pcs, n, max, &h);
  /* A stack overflow faults with sp past the end of the stack's mapping (a
   * frame bigger than what was left), where no mapping holds it: the
   * frames start at fp, which is in the mapping. */
  if (walked == n && fp > sp && fp - sp < (1u << 20)) {
    stack_lo = stack_hi = 0;
    walked = walk(fp, fp, pcs, n, max, &h);
  }
  return walked;
}

bool md_unwind_in_runtime(uintptr_t pc) {
  unsigned others = __atomic_load_n(&copy_count, __ATOMIC_ACQUIRE);
  return md_runtime_code(pc) || (others && in_other_copy(pc, others));
}
