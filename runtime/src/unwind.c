/* unwind.c - the calling thread's stack, by frame pointers: fast enough for
 * every allocation, and safe on any stack. It reads only inside the thread's
 * own stack mapping, follows only aligned, strictly increasing frames, and
 * stops at the first frame that breaks a rule (code built without frame
 * pointers ends the walk early, never faults). The runtime's frames are left
 * out wherever they are: this copy's own code (the section mdebug_text,
 * whose __start/__stop symbols each module has for itself) and that of every
 * inert copy that announced itself (copies.c), so the first pc is where the
 * program called in. Each pc is a return address minus one (inside the call
 * instruction), as malloc debug stores frames, so it names the calling
 * line.
 *
 * Every return address must also lie in a loaded module's executable
 * segment (a table built with dl_iterate_phdr at start-up and again when an
 * instrumented module is loaded): the saved frame pointer of code built
 * without frame pointers (libc's call of main) is often a stack address
 * whose neighbour is data, not a return address.
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

extern char __start_mdebug_text[] __attribute__((weak, visibility("hidden")));
extern char __stop_mdebug_text[] __attribute__((weak, visibility("hidden")));

/* The stack mapping holding this thread's stack pointer, cached. */
static __thread uintptr_t stack_lo __attribute__((tls_model("initial-exec")));
static __thread uintptr_t stack_hi __attribute__((tls_model("initial-exec")));

/* Executable segments, sorted; replaced whole (never freed, never changed
 * once published), so readers need no lock. */
#define MAX_RANGES 1024
struct code_ranges {
  size_t n;
  uintptr_t lo[MAX_RANGES], hi[MAX_RANGES];
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
void md_unwind_atfork_child(void) { md_lock_reset(&copies_lock); }

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

static int add_module(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct code_ranges *r = arg;
  for (int i = 0; i < info->dlpi_phnum && r->n < MAX_RANGES; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    size_t k = r->n++;
    for (; k > 0 && r->lo[k - 1] > lo; k--) { /* insertion sort */
      r->lo[k] = r->lo[k - 1];
      r->hi[k] = r->hi[k - 1];
    }
    r->lo[k] = lo;
    r->hi[k] = lo + ph->p_memsz;
  }
  return 0;
}

void md_unwind_refresh_code(void) {
  struct code_ranges *r = md_mmap(sizeof(*r));
  if (!r)
    return; /* keep the old table */
  dl_iterate_phdr(add_module, r);
  __atomic_store_n(&code, r, __ATOMIC_RELEASE);
}

/* The code range holding pc into [*lo, *hi), or false. Taken only when pc
 * leaves the previous frame's range (most frames of a stack are in one or
 * two modules). No table yet (before start-up): any pc from 4096 on. */
static MD_NOINLINE bool find_code(const struct code_ranges *r, uintptr_t pc,
                                  uintptr_t *lo_out, uintptr_t *hi_out) {
  if (pc < 4096)
    return false;
  if (!r) {
    *lo_out = 4096;
    *hi_out = UINTPTR_MAX;
    return true;
  }
  size_t lo = 0, hi = r->n;
  while (lo < hi) { /* the last range starting at or below pc */
    size_t mid = (lo + hi) / 2;
    if (r->lo[mid] <= pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || pc >= r->hi[lo - 1])
    return false;
  /* A range may not start below 4096 for the cached test either. */
  *lo_out = r->lo[lo - 1] < 4096 ? 4096 : r->lo[lo - 1];
  *hi_out = r->hi[lo - 1];
  return true;
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
 * than the last), the code range only when pc leaves the previous frame's
 * range, the runtime's text by one subtraction and compare. */
static MD_ALWAYS_INLINE size_t walk(uintptr_t fp, uintptr_t sp, uintptr_t *pcs,
                                    size_t n, size_t max) {
  if (MD_UNLIKELY(sp < stack_lo || sp >= stack_hi))
    find_stack(sp);
  uintptr_t hi = stack_hi;
  if (hi < 16 || fp < sp)
    return n;
  uintptr_t top = hi - 16; /* the highest frame whose two words fit */
  const struct code_ranges *ranges = __atomic_load_n(&code, __ATOMIC_ACQUIRE);
  uintptr_t text_lo = (uintptr_t)__start_mdebug_text;
  uintptr_t text_size = (uintptr_t)__stop_mdebug_text - text_lo;
  unsigned others = __atomic_load_n(&copy_count, __ATOMIC_ACQUIRE);
  uintptr_t code_lo = 0, code_size = 0; /* the last frame's code range */
  while (n < max) {
    if ((fp & 7) != 0 || fp > top)
      break;
    uintptr_t next = ((const uintptr_t *)fp)[0];
    uintptr_t pc = ((const uintptr_t *)fp)[1];
    if (MD_UNLIKELY(pc - code_lo >= code_size)) {
      uintptr_t lo, end;
      if (!find_code(ranges, pc, &lo, &end))
        break;
      code_lo = lo;
      code_size = end - lo;
    }
    if (pc - text_lo >= text_size &&
        (MD_LIKELY(!others) || !in_other_copy(pc, others)))
      pcs[n++] = pc - 1; /* the call, as malloc debug stores it */
    if (next <= fp)
      break;
    fp = next;
  }
  return n;
}

MD_NOINLINE size_t md_unwind(uintptr_t *pcs, size_t max) {
  uintptr_t fp = (uintptr_t)__builtin_frame_address(0);
  return walk(fp, fp, pcs, 0, max);
}

size_t md_unwind_from(uintptr_t pc, uintptr_t fp, uintptr_t sp, uintptr_t *pcs,
                      size_t max) {
  if (!max)
    return 0;
  size_t n = 0;
  if (!md_unwind_in_runtime(pc))
    pcs[n++] = pc;
  size_t walked = walk(fp, sp, pcs, n, max);
  /* A stack overflow faults with sp past the end of the stack's mapping (a
   * frame bigger than what was left), where no mapping holds it: the
   * frames start at fp, which is in the mapping. */
  if (walked == n && fp > sp && fp - sp < (1u << 20)) {
    stack_lo = stack_hi = 0;
    walked = walk(fp, fp, pcs, n, max);
  }
  return walked;
}

bool md_unwind_in_runtime(uintptr_t pc) {
  unsigned others = __atomic_load_n(&copy_count, __ATOMIC_ACQUIRE);
  return (pc >= (uintptr_t)__start_mdebug_text &&
          pc < (uintptr_t)__stop_mdebug_text) ||
         (others && in_other_copy(pc, others));
}
