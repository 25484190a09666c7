/* primary.c - the size-class regions: carving fresh slots, committing memory
 * as a region grows, each class's stacks of free slots, and giving whole
 * free pages back to the OS.
 *
 * Threads take and give slots through their caches (tcache.c) and come here
 * only for a batch: refill (pop a stack, or take carved slots) and drain
 * (push). Each class's free slots are shared out among MD_ARENAS arenas,
 * and each thread's cache uses one (threads take them in turn): an arena
 * has its own stack of slots given back and its own run of fresh slots
 * (RUN_BYTES of blocks carved at a time), under its own lock. Two threads
 * that each free what they allocate so keep their blocks, and the blocks'
 * metadata, on pages of their own: with one stack per class, their slots
 * interleaved through it, and each thread's blocks came to share pages and
 * lines with the other's (alloc_bench threads2 with MDEBUG_OPTIONS=none:
 * 1.48x glibc's CPU time, 1.18x with arenas; single: 1.02x either way). A
 * refill takes its arena's stack, then its run, then other arenas' stacks
 * (a thread whose blocks another frees reuses them: the heap grows by at
 * most a run per arena and class), and only then carves a new run. The
 * class lock guards committing and carving and the release passes, which
 * take every lock of the class (lock_class: those of the arenas threads
 * have used, in order, then the class's; a refill that carves holds its
 * arena's and takes the class's, and no path holds two arenas' locks
 * otherwise). The stacks hold slot indices, out of the blocks, so
 * releasing a block's pages (MADV_DONTNEED) loses nothing.
 *
 * Releasing (maybe_release says when): a pass looks for runs of slots that
 * are free and in a stack (so no thread can hand them out meanwhile: the
 * class's locks are held) and releases the whole pages inside
 * each run's usable areas. The guard areas at the
 * run's ends are left alone (a live neighbour's guard lies there); the ones
 * inside the run are zeroed with the pages, so each slot of the run is
 * marked MD_MARK_RELEASED and gets its guard areas written again when it is
 * next handed out (alloc.c). A pass scans only the range of indices its
 * candidates not released yet span, and a class whose released pages are
 * taken back at once waits longer before the next shrink pass
 * (maybe_release).
 *
 * Never allocates through malloc; memory comes from the reserved range
 * (mprotect; or mappings at fixed addresses when there is no reservation)
 * and md_mmap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "heap.h"
#include "heap_internal.h"
#include "lock.h"
#include "scan_contract.h"

#define PAGE 4096u
#define COMMIT_MIN (256u << 10) /* bytes of blocks committed at a time */
#define RELEASE_MIN (1u << 20)     /* pushed back before any pass */
#define SHRINK_MIN (4u << 20)      /* free in the stack for a shrink pass */
#define IDLE_NS 500000000ll        /* between idle passes of a class */
#define SHRINK_BACKOFF_MAX 6       /* a shrink pass at most every 8x the
                                      committed bytes pushed */
#define RUN_BYTES (16u << 10)      /* blocks carved for an arena at a time */

/* What a class keeps whatever the arena: its committed memory and the
 * release passes' bookkeeping. `lock` guards committed, fresh (carving) and
 * the passes' fields; pushed, shrink_pushed and reused are added to under
 * an arena's lock alone (atomic adds) and read and reset by a pass. */
struct class_state {
  md_lock_t lock;
  uint32_t committed; /* slots whose block, metadata and stack id memory is
                         committed */
  size_t pushed;      /* bytes pushed since the last release pass */
  size_t shrink_pushed; /* bytes pushed since the last shrink pass */
  uint32_t shrink_released; /* slots the last shrink pass released */
  uint32_t reused;    /* released slots taken again since then */
  unsigned backoff;   /* shrink passes wait for 2^backoff times the
                         pushes (SHRINK_BACKOFF_MAX at most) */
  size_t released;    /* bytes released so far (statistics) */
  long long last_idle; /* when the last idle pass ran (ns) */
  unsigned locked;    /* the arenas lock_class holds (a bit each) */
} __attribute__((aligned(64)));

/* One arena's share of a class: its stack of free slots and its run of
 * carved slots not handed out yet, under its own lock. */
struct arena_state {
  md_lock_t lock;
  uint32_t count;     /* entries in stack */
  uint32_t capacity;
  uint32_t *stack;    /* free slots given back, the last given on top */
  uint32_t low;       /* the fewest entries the stack had since the last
                         idle pass: the ones below were not touched since */
  uint32_t run, run_end; /* carved for this arena, not handed out yet:
                            slots [run, run_end) */
} __attribute__((aligned(64)));

static struct class_state states[MD_CLASS_COUNT + 1];
static struct arena_state arenas[MD_ARENAS][MD_CLASS_COUNT + 1];
/* The arenas a thread has used (a bit each; arena 0 is the cache-less
 * threads'): a pass locks and reads only those, so a program of one thread
 * never writes the other 7 rows of `arenas` (40 KiB it would keep
 * resident for nothing). */
static unsigned arenas_in_use = 1;
#define ALL_ARENAS ((1u << MD_ARENAS) - 1)

void md_primary_claim_arena(unsigned arena) {
  __atomic_fetch_or(&arenas_in_use, 1u << arena, __ATOMIC_ACQ_REL);
}
/* The rows of the others are never read: a read maps a page of its own
 * where the kernel has no zero page. */
static inline unsigned claimed_arenas(void) {
  return __atomic_load_n(&arenas_in_use, __ATOMIC_ACQUIRE);
}

static inline uintptr_t page_down(uintptr_t x) { return x & ~(uintptr_t)(PAGE - 1); }
static inline uintptr_t page_up(uintptr_t x) { return page_down(x + PAGE - 1); }

/* Makes the pages [begin, end) (page aligned) readable and writable: in the
 * reservation, or, without one (under an address-space limit), as new
 * mappings at exactly those addresses, failing if anything is there. */
static bool commit_pages(uintptr_t begin, uintptr_t end) {
  if (begin >= end)
    return true;
  if (md_heap.reserved)
    return mprotect((void *)begin, end - begin, PROT_READ | PROT_WRITE) == 0;
  void *p = mmap((void *)begin, end - begin, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                     MAP_FIXED_NOREPLACE, -1, 0);
  if (p == (void *)begin)
    return true;
  if (p != MAP_FAILED) /* a kernel without MAP_FIXED_NOREPLACE */
    munmap(p, end - begin);
  return false;
}

size_t md_heap_small_committed; /* heap.h */

/* Commits the memory of slots [0, want) of class k: blocks (with the guard
 * area after the last), metadata, stack ids, page by page exactly once.
 * Under the class lock. */
static bool commit(unsigned k, struct class_state *s, uint32_t want) {
  const struct md_class_info *c = &md_heap.classes[k];
  if (want <= s->committed)
    return true;
  if (want > c->max_slots)
    return false;
  /* Grow by at least COMMIT_MIN bytes of blocks, and by half again. */
  uint32_t step = COMMIT_MIN / c->stride;
  if (step < s->committed / 2)
    step = s->committed / 2;
  uint32_t old = s->committed, target = want;
  if (target < old + step)
    target = old + step;
  if (target > c->max_slots)
    target = c->max_slots;
  uintptr_t slot0 = c->start + c->first;
  /* What is committed: [page_down(slot0), blocks_old) and
   * [meta_old, page_up(meta_end)) (the arrays start at a colour, not a
   * page). */
  uintptr_t blocks_old = old ? page_up(slot0 + (uintptr_t)old * c->stride + md_heap.guard) : page_down(slot0);
  uintptr_t blocks_new = page_up(slot0 + (uintptr_t)target * c->stride + md_heap.guard);
  uintptr_t meta_old = old ? page_down(c->meta_end - (uintptr_t)old * sizeof(struct md_meta)) : page_up(c->meta_end);
  uintptr_t meta_new = page_down(c->meta_end - (uintptr_t)target * sizeof(struct md_meta));
  uintptr_t stacks_old = page_down(c->stacks_end - (uintptr_t)old * sizeof(struct md_stacks));
  uintptr_t stacks_new = page_down(c->stacks_end - (uintptr_t)target * sizeof(struct md_stacks));
  if (!commit_pages(blocks_old, blocks_new))
    return false; /* ENOMEM: the caller looks elsewhere */
  if (!commit_pages(meta_new, meta_old) ||
      (md_heap.stacks && !commit_pages(stacks_new, stacks_old))) {
    /* Keep what was mapped: pages are committed in order, so a later
     * attempt starts again from the same boundaries. */
    if (!md_heap.reserved)
      munmap((void *)blocks_old, blocks_new - blocks_old);
    return false;
  }
  s->committed = target;
  __atomic_fetch_add(&md_heap_small_committed,
                     (size_t)(target - old) * c->stride, __ATOMIC_RELAXED);
  return true;
}

/* Carves a run of fresh slots for arena a, at least n (RUN_BYTES of blocks
 * when they are smaller): whole pages of its own, so two threads' blocks
 * and metadata seldom share a page or a line. Under a's lock; takes the
 * class lock. False when the region is full or memory cannot be committed. */
static bool carve_run(unsigned k, struct arena_state *a, size_t n) {
  struct class_state *s = &states[k];
  const struct md_class_info *c = &md_heap.classes[k];
  size_t want = RUN_BYTES / c->stride;
  if (want < n)
    want = n;
  md_lock(&s->lock);
  uint32_t fresh = md_heap.fresh[k];
  if (fresh + want > c->max_slots)
    want = c->max_slots - fresh;
  if (want == 0 || !commit(k, s, fresh + (uint32_t)want)) {
    md_unlock(&s->lock);
    return false;
  }
  /* Nothing is written to the new slots: their pages stay untouched until
   * a slot is handed out (it writes its guard areas then, alloc.c). Their
   * metadata is zero (NEVER) and mapped: publish. */
  __atomic_store_n(&md_heap.fresh[k], fresh + (uint32_t)want,
                   __ATOMIC_RELEASE);
  md_unlock(&s->lock);
  a->run = fresh;
  a->run_end = fresh + (uint32_t)want;
  return true;
}

/* Up to n slots from a's stack into out; under a's lock. */
static size_t pop(unsigned k, struct arena_state *a, uint32_t *out, size_t n) {
  size_t got = 0;
  uint32_t released = 0;
  while (got < n && a->count) {
    uint32_t i = a->stack[--a->count];
    uint32_t bits = __atomic_load_n(&md_meta_at(k, i)->bits, __ATOMIC_RELAXED);
    released += (MD_BITS_MARKS(bits) & MD_MARK_RELEASED) != 0;
    out[got++] = i;
  }
  if (released)
    __atomic_fetch_add(&states[k].reused, released, __ATOMIC_RELAXED);
  if (a->count < a->low)
    a->low = a->count;
  return got;
}

/* Up to n slots of a's run into out; under a's lock. */
static size_t take_run(struct arena_state *a, uint32_t *out, size_t n) {
  size_t got = 0;
  while (got < n && a->run < a->run_end)
    out[got++] = a->run++;
  return got;
}

/* The arena's own first: its stack (what its threads gave back), then its
 * run; then what other arenas' threads gave back (a thread that only
 * allocates, its blocks freed elsewhere, reuses them: the heap does not
 * grow); only then a new run. */
size_t md_primary_refill(unsigned k, unsigned arena, uint32_t *out, size_t n) {
  struct arena_state *a = &arenas[arena][k];
  md_lock(&a->lock);
  size_t got = pop(k, a, out, n);
  if (!got)
    got = take_run(a, out, n);
  md_unlock(&a->lock);
  /* Another arena's lock is never taken with one's own held (lock_class
   * alone holds several, in order). */
  unsigned in_use = claimed_arenas();
  for (unsigned j = 1; j < MD_ARENAS && !got; j++) {
    unsigned other = (arena + j) % MD_ARENAS;
    struct arena_state *o = &arenas[other][k];
    if (!(in_use & (1u << other)) || !__atomic_load_n(&o->count, __ATOMIC_RELAXED))
      continue;
    md_lock(&o->lock);
    got = pop(k, o, out, n);
    md_unlock(&o->lock);
  }
  if (got)
    return got;
  md_lock(&a->lock);
  got = pop(k, a, out, n); /* given back meanwhile */
  if (!got)
    got = take_run(a, out, n);
  if (!got && carve_run(k, a, n))
    got = take_run(a, out, n);
  md_unlock(&a->lock);
  return got;
}

/* Room in the stack for n more; under the lock. */
static bool reserve_stack(struct arena_state *a, size_t n) {
  if (a->count + n <= a->capacity)
    return true;
  size_t cap = a->capacity ? (size_t)a->capacity * 2 : 1024;
  while (cap < a->count + n)
    cap *= 2;
  uint32_t *stack = md_mmap(cap * sizeof(uint32_t));
  if (!stack)
    return false;
  if (a->stack) {
    memcpy(stack, a->stack, a->count * sizeof(uint32_t));
    md_munmap(a->stack, (size_t)a->capacity * sizeof(uint32_t));
  }
  a->stack = stack;
  a->capacity = (uint32_t)cap;
  return true;
}

static uint32_t release_pass(unsigned k, bool idle_only);

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Every lock of class k: those of the arenas in `mask`, in order, then the
 * class's (the one order every path that takes more than one follows).
 * The arenas it holds are states[k].locked: a pass reads the stacks of
 * those only. A thread that claims an arena meanwhile pushes to a stack
 * the pass does not read, and takes the class's lock after its arena's,
 * as every path does. */
static void lock_arenas(unsigned k, unsigned mask) {
  for (unsigned j = 0; j < MD_ARENAS; j++)
    if (mask & (1u << j))
      md_lock(&arenas[j][k].lock);
  md_lock(&states[k].lock);
  states[k].locked = mask;
}
static void lock_class(unsigned k) {
  lock_arenas(k, claimed_arenas());
}
static void unlock_class(unsigned k) {
  unsigned mask = states[k].locked;
  md_unlock(&states[k].lock);
  for (unsigned j = MD_ARENAS; j-- > 0;)
    if (mask & (1u << j))
      md_unlock(&arenas[j][k].lock);
}
static inline bool locked(unsigned k, unsigned j) {
  return states[k].locked & (1u << j);
}

/* Free slots in every claimed arena's stack (exact under lock_class, but
 * for an arena claimed meanwhile); the others' rows are not read. */
static size_t stacked(unsigned k) {
  size_t n = 0;
  unsigned in_use = claimed_arenas();
  for (unsigned j = 0; j < MD_ARENAS; j++)
    if (in_use & (1u << j))
      n += __atomic_load_n(&arenas[j][k].count, __ATOMIC_RELAXED);
  return n;
}

/* Two reasons to give pages back, checked once enough came back. The
 * program shrank: most of what the class committed is free, and a lot of
 * it - release every free slot now (a program that frees a large heap sees
 * its RSS fall). Or slots sat idle at the bottom of the stacks since the
 * last such pass, at least IDLE_NS ago - release those. A class whose
 * blocks come and go (freed and soon taken again) keeps its pages: giving
 * them back would cost a fault and a zeroed page at each reuse.
 *
 * A program that frees a large heap and builds another (a garbage
 * collector's cycles) shrinks again and again, and takes back at once what
 * each shrink pass gave: each pass then cost a scan of the class and a
 * fault per page it released. So when half of what the last shrink pass
 * released was taken again before the next, the class waits twice as many
 * pushes before the next shrink pass (up to 2^SHRINK_BACKOFF_MAX times);
 * when it was not, half as many. The idle rule still gives back what then
 * stays unused. Under lock_class. */
static bool shrink_due(unsigned k, const struct class_state *s) {
  const struct md_class_info *c = &md_heap.classes[k];
  size_t free_bytes = stacked(k) * c->size;
  size_t committed =
      (size_t)__atomic_load_n(&s->committed, __ATOMIC_RELAXED) * c->stride;
  return free_bytes >= SHRINK_MIN && free_bytes * 2 >= committed &&
         __atomic_load_n(&s->shrink_pushed, __ATOMIC_RELAXED) >=
             (committed / 8) << __atomic_load_n(&s->backoff, __ATOMIC_RELAXED);
}

static void maybe_release(unsigned k, struct class_state *s) {
  if (shrink_due(k, s)) {
    if (s->shrink_released &&
        __atomic_load_n(&s->reused, __ATOMIC_RELAXED) * 2 >=
            s->shrink_released) {
      if (s->backoff < SHRINK_BACKOFF_MAX) {
        s->backoff++; /* thrashing: wait for twice as many pushes */
        return;
      }
    } else if (s->backoff) {
      s->backoff--;
    }
    s->shrink_released = release_pass(k, false);
    __atomic_store_n(&s->shrink_pushed, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s->reused, 0, __ATOMIC_RELAXED);
    return;
  }
  long long now = now_ns();
  if (now - s->last_idle < IDLE_NS)
    return;
  bool idle = false;
  for (unsigned j = 0; j < MD_ARENAS; j++)
    idle |= locked(k, j) && arenas[j][k].low != 0;
  if (idle)
    release_pass(k, true);
  s->last_idle = now;
  for (unsigned j = 0; j < MD_ARENAS; j++)
    if (locked(k, j))
      arenas[j][k].low = arenas[j][k].count;
}

/* Whether maybe_release may have something to do, read without the locks
 * (a drain takes them all only then). */
static bool release_due(unsigned k, const struct class_state *s) {
  return shrink_due(k, s) ||
         now_ns() - __atomic_load_n(&s->last_idle, __ATOMIC_RELAXED) >= IDLE_NS;
}

void md_primary_drain(unsigned k, unsigned arena, const uint32_t *slots,
                      size_t n) {
  struct class_state *s = &states[k];
  struct arena_state *a = &arenas[arena][k];
  md_lock(&a->lock);
  if (!reserve_stack(a, n)) {
    /* No memory even for the stack: these slots are lost for reuse (their
     * state stays FREED, so they are still known as freed). */
    md_unlock(&a->lock);
    return;
  }
  /* Indices only: MD_MARK_SHARED is set during a release pass (which
   * alone reads it), not here, so a batch touches no slot's metadata. */
  for (size_t j = 0; j < n; j++)
    a->stack[a->count++] = slots[j];
  md_unlock(&a->lock);
  size_t bytes = n * md_heap.classes[k].size;
  __atomic_fetch_add(&s->shrink_pushed, bytes, __ATOMIC_RELAXED);
  if (__atomic_add_fetch(&s->pushed, bytes, __ATOMIC_RELAXED) < RELEASE_MIN ||
      !release_due(k, s))
    return;
  lock_class(k);
  if (s->pushed >= RELEASE_MIN) /* not another thread's pass meanwhile */
    maybe_release(k, s);
  unlock_class(k);
}

/* Releases the whole pages inside the usable areas of slots [first, last],
 * all releasable; marks them. Returns how many slots it marked. */
static uint32_t release_run(unsigned k, struct class_state *s,
                            uint32_t first, uint32_t last) {
  uintptr_t b = page_up((uintptr_t)md_slot_user(k, first));
  uintptr_t e = page_down((uintptr_t)md_slot_user(k, last) +
                          md_heap.classes[k].size);
  if (b >= e)
    return 0;
  if (madvise((void *)b, e - b, MADV_DONTNEED) != 0)
    return 0;
  s->released += e - b;
  uint32_t mark = (uint32_t)MD_MARK_RELEASED << MD_BITS_MARK_SHIFT;
  for (uint32_t i = first; i <= last; i++) {
    struct md_meta *m = md_meta_at(k, i);
    __atomic_store_n(&m->bits, m->bits | mark, __ATOMIC_RELAXED);
  }
  return last - first + 1;
}

/* Sets (or clears) `mark` on the first n(a) slots of every arena's stack:
 * all of them, or (idle) those below its low-water mark. */
static void mark_stacked(unsigned k, uint32_t mark, bool set, bool idle) {
  for (unsigned j = 0; j < MD_ARENAS; j++) {
    if (!locked(k, j))
      continue;
    const struct arena_state *a = &arenas[j][k];
    uint32_t n = idle ? a->low : a->count;
    for (uint32_t x = 0; x < n; x++) {
      struct md_meta *m = md_meta_at(k, a->stack[x]);
      uint32_t bits = m->bits;
      __atomic_store_n(&m->bits, set ? bits | mark : bits & ~mark,
                       __ATOMIC_RELAXED);
    }
  }
}

/* Releases the pages of free slots in the arenas' stacks; with idle_only,
 * of those below each stack's low-water mark only (marked MD_MARK_IDLE for
 * the scan). Under lock_class. Returns how many slots it marked.
 *
 * Only the candidates not released yet need their pages given back: the
 * scan covers the range of indices they span, widened over free neighbours
 * to the pages the range's ends share, not every slot of the class (passes
 * come again and again, idle ones every IDLE_NS, and find mostly the same
 * slots released already). */
static uint32_t release_pass(unsigned k, bool idle_only) {
  struct class_state *s = &states[k];
  uint32_t idle = (uint32_t)MD_MARK_IDLE << MD_BITS_MARK_SHIFT;
  uint32_t rel = (uint32_t)MD_MARK_RELEASED << MD_BITS_MARK_SHIFT;
  uint32_t shared = (uint32_t)MD_MARK_SHARED << MD_BITS_MARK_SHIFT;
  uint32_t lo = UINT32_MAX, hi = 0, marked = 0;
  __atomic_store_n(&s->pushed, 0, __ATOMIC_RELAXED);
  for (unsigned j = 0; j < MD_ARENAS; j++) {
    if (!locked(k, j))
      continue;
    const struct arena_state *a = &arenas[j][k];
    uint32_t n = idle_only ? a->low : a->count;
    for (uint32_t x = 0; x < n; x++) {
      uint32_t i = a->stack[x];
      if (!(md_meta_at(k, i)->bits & rel)) {
        lo = i < lo ? i : lo;
        hi = i > hi ? i : hi;
      }
    }
  }
  if (lo > hi)
    return 0; /* all released already: nothing to mark */
  /* The stacks' slots, marked for the pass (and unmarked after): the scan
   * below must tell them from free slots in threads' caches. */
  mark_stacked(k, shared, true, false);
  if (idle_only)
    mark_stacked(k, idle, true, true);
  /* A candidate: FREED and in a stack (so nobody can take it while the
   * class's locks are held), and idle if asked; one load of its metadata
   * word. */
  uint32_t want_marks = shared | (idle_only ? idle : 0);
  uint32_t mask = want_marks | 3u, want = want_marks | MD_STATE_FREED;
  struct md_meta *meta = md_meta_at(k, 0) + 1; /* meta[-1 - i]: slot i */
#define CANDIDATE(i)                                                         \
  ((__atomic_load_n(&meta[-1 - (intptr_t)(i)].bits, __ATOMIC_RELAXED) &    \
    mask) == want)
  {
    /* Widened over free neighbours (released already, or not: none is
     * below lo or above hi) just enough to cover the pages the ends
     * share with them, not over whole released runs. */
    uint32_t fresh = md_heap.fresh[k];
    size_t size = md_heap.classes[k].size;
    uintptr_t lo_page = page_down((uintptr_t)md_slot_user(k, lo));
    uintptr_t hi_page = page_up((uintptr_t)md_slot_user(k, hi) + size);
    while (lo > 0 && (uintptr_t)md_slot_user(k, lo) > lo_page &&
           CANDIDATE(lo - 1))
      lo--;
    while (hi + 1 < fresh && (uintptr_t)md_slot_user(k, hi) + size < hi_page &&
           CANDIDATE(hi + 1))
      hi++;
    uint32_t i = lo;
    while (i <= hi) {
      while (i <= hi && !CANDIDATE(i))
        i++;
      if (i > hi)
        break;
      uint32_t run = i;
      while (i <= hi && CANDIDATE(i))
        i++;
      marked += release_run(k, s, run, i - 1);
    }
  }
#undef CANDIDATE
  if (idle_only)
    mark_stacked(k, idle, false, true);
  mark_stacked(k, shared, false, false);
  return marked;
}

size_t md_primary_release_all(void) {
  size_t total = 0;
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++) {
    struct class_state *s = &states[k];
    lock_class(k);
    size_t before = s->released;
    release_pass(k, false);
    total += s->released - before;
    unlock_class(k);
  }
  return total;
}

MD_COLD void md_primary_stats(size_t *committed, size_t *released,
                              size_t *shared) {
  *committed = *released = *shared = 0;
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++) {
    struct class_state *s = &states[k];
    lock_class(k);
    *committed += (size_t)s->committed * md_heap.classes[k].stride;
    *released += s->released;
    *shared += stacked(k);
    unlock_class(k);
  }
}

/* Every arena: one may be claimed while the locks are taken. */
void md_primary_atfork_prepare(void) {
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    lock_arenas(k, ALL_ARENAS);
}
void md_primary_atfork_parent(void) {
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    unlock_class(k);
}
void md_primary_atfork_child(void) {
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++) {
    for (unsigned j = 0; j < MD_ARENAS; j++)
      md_lock_reset(&arenas[j][k].lock);
    md_lock_reset(&states[k].lock);
  }
}
