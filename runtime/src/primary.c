/* primary.c - the size-class regions: carving fresh slots, committing memory
 * as a region grows, each class's shared stack of free slots, and giving
 * whole free pages back to the OS.
 *
 * Threads take and give slots through their caches (tcache.c) and come here
 * only for a batch: refill (pop the shared stack, or carve fresh slots) and
 * drain (push). Each class has its own lock, held for one batch; nothing
 * else in the heap locks. The shared stack holds slot indices, out of the
 * blocks, so releasing a block's pages (MADV_DONTNEED) loses nothing.
 *
 * Releasing (maybe_release says when): a pass looks for runs of slots that
 * are free and in the shared stack (so no thread can hand them out
 * meanwhile: the class lock is held) and releases the whole pages inside
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

struct class_state {
  md_lock_t lock;
  uint32_t committed; /* slots whose block, metadata and stack id memory is
                         committed */
  uint32_t count;     /* entries in stack */
  uint32_t capacity;
  uint32_t *stack;    /* free slots given back, the last given on top */
  uint32_t low;       /* the fewest entries the stack had since the last
                         idle pass: the ones below were not touched since */
  size_t pushed;      /* bytes pushed since the last release pass */
  size_t shrink_pushed; /* bytes pushed since the last shrink pass */
  uint32_t shrink_released; /* slots the last shrink pass released */
  uint32_t reused;    /* released slots taken again since then */
  unsigned backoff;   /* shrink passes wait for 2^backoff times the
                         pushes (SHRINK_BACKOFF_MAX at most) */
  size_t released;    /* bytes released so far (statistics) */
  long long last_idle; /* when the last idle pass ran (ns) */
} __attribute__((aligned(64)));

static struct class_state states[MD_CLASS_COUNT + 1];

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

/* Carves up to n fresh slots into out; under the class lock. */
static size_t carve(unsigned k, struct class_state *s, uint32_t *out, size_t n) {
  uint32_t fresh = md_heap.fresh[k];
  const struct md_class_info *c = &md_heap.classes[k];
  if (fresh + n > c->max_slots)
    n = c->max_slots - fresh;
  if (n == 0 || !commit(k, s, fresh + (uint32_t)n))
    return 0;
  /* Nothing is written to the new slots: their pages stay untouched until
   * a slot is handed out (it writes its guard areas then, alloc.c). */
  for (size_t j = 0; j < n; j++)
    out[j] = fresh + (uint32_t)j;
  /* Metadata of the new slots is zero (NEVER) and mapped: publish. */
  __atomic_store_n(&md_heap.fresh[k], fresh + (uint32_t)n, __ATOMIC_RELEASE);
  return n;
}

static inline void set_shared(unsigned k, uint32_t i, bool shared) {
  struct md_meta *m = md_meta_at(k, i);
  uint32_t bits = m->bits, mark = (uint32_t)MD_MARK_SHARED << MD_BITS_MARK_SHIFT;
  __atomic_store_n(&m->bits, shared ? bits | mark : bits & ~mark,
                   __ATOMIC_RELAXED);
}

size_t md_primary_refill(unsigned k, uint32_t *out, size_t n) {
  struct class_state *s = &states[k];
  md_lock(&s->lock);
  size_t got = 0;
  uint32_t released = 0;
  while (got < n && s->count) {
    uint32_t i = s->stack[--s->count];
    uint32_t bits = __atomic_load_n(&md_meta_at(k, i)->bits, __ATOMIC_RELAXED);
    released += (MD_BITS_MARKS(bits) & MD_MARK_RELEASED) != 0;
    out[got++] = i;
  }
  s->reused += released;
  if (s->count < s->low)
    s->low = s->count;
  if (got == 0)
    got = carve(k, s, out, n);
  md_unlock(&s->lock);
  return got;
}

/* Room in the stack for n more; under the lock. */
static bool reserve_stack(struct class_state *s, size_t n) {
  if (s->count + n <= s->capacity)
    return true;
  size_t cap = s->capacity ? (size_t)s->capacity * 2 : 1024;
  while (cap < s->count + n)
    cap *= 2;
  uint32_t *stack = md_mmap(cap * sizeof(uint32_t));
  if (!stack)
    return false;
  if (s->stack) {
    memcpy(stack, s->stack, s->count * sizeof(uint32_t));
    md_munmap(s->stack, (size_t)s->capacity * sizeof(uint32_t));
  }
  s->stack = stack;
  s->capacity = (uint32_t)cap;
  return true;
}

static uint32_t release_pass(unsigned k, struct class_state *s,
                             bool idle_only);

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Two reasons to give pages back, checked once enough came back. The
 * program shrank: most of what the class committed is free, and a lot of
 * it - release every free slot now (a program that frees a large heap sees
 * its RSS fall). Or slots sat idle at the bottom of the stack since the
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
 * stays unused. */
static void maybe_release(unsigned k, struct class_state *s) {
  const struct md_class_info *c = &md_heap.classes[k];
  size_t free_bytes = (size_t)s->count * c->size;
  size_t committed = (size_t)s->committed * c->stride;
  if (free_bytes >= SHRINK_MIN && free_bytes * 2 >= committed &&
      s->shrink_pushed >= (committed / 8) << s->backoff) {
    if (s->shrink_released && s->reused * 2 >= s->shrink_released) {
      if (s->backoff < SHRINK_BACKOFF_MAX) {
        s->backoff++; /* thrashing: wait for twice as many pushes */
        return;
      }
    } else if (s->backoff) {
      s->backoff--;
    }
    s->shrink_released = release_pass(k, s, false);
    s->shrink_pushed = 0;
    s->reused = 0;
    return;
  }
  long long now = now_ns();
  if (now - s->last_idle < IDLE_NS)
    return;
  if (s->low)
    release_pass(k, s, true);
  s->last_idle = now;
  s->low = s->count;
}

void md_primary_drain(unsigned k, const uint32_t *slots, size_t n) {
  struct class_state *s = &states[k];
  md_lock(&s->lock);
  if (!reserve_stack(s, n)) {
    /* No memory even for the stack: these slots are lost for reuse (their
     * state stays FREED, so they are still known as freed). */
    md_unlock(&s->lock);
    return;
  }
  /* Indices only: MD_MARK_SHARED is set during a release pass (which
   * alone reads it), not here, so a batch touches no slot's metadata. */
  for (size_t j = 0; j < n; j++)
    s->stack[s->count++] = slots[j];
  s->pushed += n * md_heap.classes[k].size;
  s->shrink_pushed += n * md_heap.classes[k].size;
  if (s->pushed >= RELEASE_MIN)
    maybe_release(k, s);
  md_unlock(&s->lock);
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

/* Releases the pages of free slots in the shared stack; with idle_only,
 * of those below its low-water mark only (marked MD_MARK_IDLE for the
 * scan). Under the class lock. Returns how many slots it marked.
 *
 * Only the candidates not released yet need their pages given back: the
 * scan covers the range of indices they span, widened over free neighbours
 * to the pages the range's ends share, not every slot of the class (passes
 * come again and again, idle ones every IDLE_NS, and find mostly the same
 * slots released already). */
static uint32_t release_pass(unsigned k, struct class_state *s,
                             bool idle_only) {
  uint32_t idle = (uint32_t)MD_MARK_IDLE << MD_BITS_MARK_SHIFT;
  uint32_t rel = (uint32_t)MD_MARK_RELEASED << MD_BITS_MARK_SHIFT;
  uint32_t n = idle_only ? s->low : s->count;
  uint32_t lo = UINT32_MAX, hi = 0, marked = 0;
  s->pushed = 0;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t i = s->stack[j];
    if (!(md_meta_at(k, i)->bits & rel)) {
      lo = i < lo ? i : lo;
      hi = i > hi ? i : hi;
    }
  }
  if (lo > hi)
    return 0; /* all released already: nothing to mark */
  /* The whole stack's slots, marked for the pass (and unmarked after):
   * the scan below must tell them from free slots in threads' caches. */
  for (uint32_t j = 0; j < s->count; j++)
    set_shared(k, s->stack[j], true);
  if (idle_only)
    for (uint32_t j = 0; j < n; j++) {
      struct md_meta *m = md_meta_at(k, s->stack[j]);
      __atomic_store_n(&m->bits, m->bits | idle, __ATOMIC_RELAXED);
    }
  /* A candidate: FREED and in the shared stack (so nobody can take it
   * while the class lock is held), and idle if asked; one load of its
   * metadata word. */
  uint32_t want_marks = (uint32_t)MD_MARK_SHARED << MD_BITS_MARK_SHIFT |
                        (idle_only ? idle : 0);
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
    for (uint32_t j = 0; j < n; j++) {
      struct md_meta *m = md_meta_at(k, s->stack[j]);
      __atomic_store_n(&m->bits, m->bits & ~idle, __ATOMIC_RELAXED);
    }
  for (uint32_t j = 0; j < s->count; j++)
    set_shared(k, s->stack[j], false);
  return marked;
}

size_t md_primary_release_all(void) {
  size_t total = 0;
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++) {
    struct class_state *s = &states[k];
    md_lock(&s->lock);
    size_t before = s->released;
    release_pass(k, s, false);
    total += s->released - before;
    md_unlock(&s->lock);
  }
  return total;
}

void md_primary_stats(size_t *committed, size_t *released, size_t *shared) {
  *committed = *released = *shared = 0;
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++) {
    struct class_state *s = &states[k];
    md_lock(&s->lock);
    *committed += (size_t)s->committed * md_heap.classes[k].stride;
    *released += s->released;
    *shared += s->count;
    md_unlock(&s->lock);
  }
}

void md_primary_atfork_prepare(void) {
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    md_lock(&states[k].lock);
}
void md_primary_atfork_parent(void) {
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    md_unlock(&states[k].lock);
}
void md_primary_atfork_child(void) {
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    md_lock_reset(&states[k].lock);
}
