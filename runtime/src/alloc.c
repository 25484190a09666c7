/* alloc.c - the checked allocator: every entry point, instrumented or not,
 * ends here. Takes blocks from mdebug's heap (heap.h), writes their
 * metadata and guards, verifies every pointer given back by its metadata,
 * and hands freed blocks to the quarantine or back to the heap.
 *
 * Order matters. On allocation the metadata's `bits` (state LIVE) are
 * written last, so a walk never sees a live block whose guards are not
 * written. On free the state changes first, with one compare-and-swap (of
 * two racing frees of a block, one sees it freed: the double free), then
 * the checks run, then the block is filled and queued. A pointer that is
 * not a live block's start is reported from what its metadata says (freed
 * where, interior to which block) and left alone. Never allocates for
 * itself; free keeps errno.
 *
 * The common malloc and free are inline in alloc.h (entry.c runs them in
 * its own frames); every way out of them is a function here that does the
 * whole job the general way, so the two must agree step for step.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "access.h"
#include "alloc.h"
#include "fill.h"
#include "guard.h"
#include "heap.h"
#include "init.h"
#include "lifecycle.h"
#include "options.h"
#include "origin.h"
#include "profiler.h"
#include "quarantine.h"
#include "record.h"
#include "refuse.h"
#include "report.h"
#include "site.h"
#include "stacks.h"
#include "track.h"

uint32_t md_alloc_mode = MD_MODE_UNSET;

void md_alloc_mode_set(void) {
  if (__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) != 2)
    return;
  uint32_t m = (md_heap.stacks ? MD_MODE_STACKS : 0) |
               (md_opt.fill_on_alloc ? MD_MODE_FILL_ALLOC : 0) |
               (md_guards_on ? MD_MODE_GUARDS : 0) |
               (md_heap.front_guard == 0 && md_heap.rear_guard == 8
                    ? MD_MODE_REAR8
                    : 0) |
               (md_opt.free_track ? MD_MODE_FREE_TRACK : 0) |
               (md_opt.free_track && !md_heap.stacks ? MD_MODE_PUSH : 0) |
               (md_opt.fill_on_free ? MD_MODE_FILL_FREE : 0) |
               (md_heap.guard ? MD_MODE_AREAS : 0);
  __atomic_store_n(&md_alloc_mode, m, __ATOMIC_RELAXED);
}

const unsigned char md_op_family_table[64] = {
#define MD_OP(NAME, DISPLAY, FAMILY, RELEASE, RECORD)                          \
  [MD_OP_##NAME] = MD_FAMILY_##FAMILY,
#include "ops.def"
};
_Static_assert(MD_OP_COUNT <= 64, "an op is 6 bits of a block's bits");

/* What an allocation does once it has a block b (from md_heap_take_slow,
 * md_heap_take_guarded, or the cache: md_alloc_slot): the general path, for
 * any block and any options. */
static MD_NOINLINE void *allocate_block(struct md_block *b, size_t size,
                                        bool zero, unsigned op,
                                        md_origin_t origin) {
  struct md_meta *m = b->meta;
  uint32_t before = m->bits, id = md_origin_id(origin);
  m->alloc_origin = id;
  m->free_origin = 0;
  m->size = (uint32_t)size; /* a large block's full size is in its header */
  unsigned marks = md_track_alloc(b, id, size); /* the profiler (track.h) */
  if (b->stacks) {
    b->stacks->alloc_stack = md_backtrace_alloc(size);
    b->stacks->free_stack = 0;
  }
  if (MD_UNLIKELY(!b->klass || b->lead ||
                  MD_BITS_STATE(before) == MD_STATE_NEVER ||
                  (MD_BITS_MARKS(before) & MD_MARK_RELEASED))) {
    md_guard_write(b, before);
  } else if (md_guards_on) { /* md_guard_write's common case: the slack */
    size_t n, slack;
    unsigned char *rear = md_block_rear_guard(b, &n, &slack);
    md_fill_bytes(rear, slack, MD_GUARD_REAR);
  }
  if (zero) {
    if (MD_LIKELY(b->klass))
      memset(b->user, 0, md_block_usable(b));
    else /* zero already, unless its span held a freed block */
      md_heap_zero_large(b);
  } else if (md_opt.fill_on_alloc) {
    md_fill_on_alloc(b);
  }
  /* Last: the block is complete before anything sees it live. */
  md_meta_publish(m, (uint32_t)size,
                  MD_BITS_MAKE(MD_STATE_LIVE, op, 0, md_fork_epoch, marks,
                               b->lead));
  if (__atomic_load_n(&md_access_used, __ATOMIC_RELAXED))
    md_access_keep_new(b);
  return b->user;
}

/* No block from the thread's cache: page_guard's turn (pg: its countdown
 * ran out), else the heap's slow path. */
MD_NOINLINE void *md_alloc_take_slow(size_t size, size_t align,
                                            bool zero, unsigned op,
                                            md_origin_t origin, bool pg) {
  struct md_block b;
  if (!(pg && md_heap_take_guarded(size, align, origin, &b)) &&
      !md_heap_take_slow(size, align, &b))
    return NULL; /* errno is ENOMEM */
  return allocate_block(&b, size, zero, op, origin);
}

/* Slot i of class k, just taken from the cache, as allocate_block's block. */
MD_NOINLINE void *md_alloc_slot(unsigned k, uint32_t i, size_t size,
                                       bool zero, unsigned op,
                                       md_origin_t origin) {
  if (MD_UNLIKELY(md_alloc_mode_get() & MD_MODE_UNSET))
    md_alloc_mode_set();
  struct md_block b;
  md_heap_new_block(k, i, size, &b);
  return allocate_block(&b, size, zero, op, origin);
}

/* The inline path's stacks: a slot md_alloc_slot would not treat
 * otherwise (no fill, its guard areas written) records its stack here, as
 * allocate_block does, and the inline path goes on. */
MD_NOINLINE bool md_alloc_stack(unsigned k, uint32_t i, size_t size) {
  uint32_t mode = md_alloc_mode_get();
  if (mode & (MD_MODE_UNSET | MD_MODE_FILL_ALLOC))
    return false;
  if (mode & MD_MODE_AREAS) { /* a slot without its areas */
    uint32_t before = md_meta_at(k, i)->bits;
    if (MD_BITS_STATE(before) == MD_STATE_NEVER ||
        (MD_BITS_MARKS(before) & MD_MARK_RELEASED))
      return false;
  }
  struct md_stacks *st = md_stacks_at(k, i);
  st->alloc_stack = md_backtrace_alloc_at(size, MD_CALLER_FRAME());
  st->free_stack = 0;
  return true;
}

/* The profiler's sampling chose this block, or checked accesses keep an
 * answer for it: the hooks that want a struct md_block. */
MD_COLD MD_NOINLINE MD_RARE_CALL unsigned
md_alloc_sampled(unsigned k, uint32_t i, size_t size) {
  struct md_block b;
  md_heap_new_block(k, i, size, &b);
  b.meta->size = (uint32_t)size; /* md_sample_alloc may read it there */
  return md_sample_alloc(&b, size);
}
MD_NOINLINE MD_RARE_CALL void md_alloc_keep(unsigned k, uint32_t i, size_t size) {
  struct md_block b;
  md_heap_new_block(k, i, size, &b);
  md_access_keep_new(&b);
}

/* Calls that record themselves (record_allocs) as a whole. */
static bool records_itself(unsigned op) { return md_op_records_itself(op); }

/* Before init, or while recording: kept out of md_allocate, whose common
 * path is then a jump to allocate with nothing to save or restore. */
MD_NOINLINE void *md_allocate_slow(size_t size, size_t align,
                                       enum md_family family, bool zero,
                                       unsigned op, md_origin_t origin) {
  (void)family;
  md_ensure_init();
  if (MD_LIKELY(!md_recording) || records_itself(op))
    return md_alloc_fast(size, align, zero, op, origin);
  uint64_t start = md_record_now();
  void *p = md_alloc_fast(size, align, zero, op, origin);
  md_record(align ? MD_REC_MEMALIGN : MD_REC_MALLOC, (uintptr_t)p, 0, align,
            size, start, md_record_now());
  return p;
}

void *md_allocate(size_t size, size_t align, enum md_family family, bool zero,
                  unsigned op, md_origin_t origin) {
  return md_allocate_inline(size, align, family, zero, op, origin);
}

/* ---- reports about the pointer itself ------------------------------------ */

/* A hint for a pointer that is no block's start: where does it point? */
MD_COLD static void describe_pointer(const void *p) {
  struct md_block b;
  enum md_lookup where = md_heap_find(p, &b);
  if (where == MD_INTERIOR || (where == MD_IN_HEAP && b.meta &&
                               md_block_state(&b) != MD_STATE_NEVER)) {
    enum md_state st = md_block_state(&b);
    const char *state = st == MD_STATE_LIVE ? "" : " freed";
    long off = (long)((const unsigned char *)p - b.user);
    if (off >= 0)
      md_report_line("  %p is %ld byte%s inside a%s block of size %zu at %p",
                     p, off, off == 1 ? "" : "s", state, b.size, b.user);
    else
      md_report_line("  %p is %ld byte%s before a%s block of size %zu at %p",
                     p, -off, off == -1 ? "" : "s", state, b.size, b.user);
    uint32_t bits = __atomic_load_n(&b.meta->bits, __ATOMIC_ACQUIRE);
    md_report_origin("allocated", MD_BITS_ALLOC_OP(bits),
                     md_origin_of(b.meta->alloc_origin));
    if (st != MD_STATE_LIVE)
      md_report_origin("freed", MD_BITS_FREE_OP(bits),
                       md_origin_of(b.meta->free_origin));
    return;
  }
  if (where == MD_IN_HEAP) {
    md_report_line("  %p is not the start of any block mdebug allocated (it "
                   "lies in mdebug's heap, in a guard area or an unused slot)",
                   p);
    return;
  }
  Dl_info info;
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
  if ((uintptr_t)p >= sp && (uintptr_t)p - sp < (8u << 20))
    md_report_line("  %p looks like an address on this thread's stack", p);
  else if (dladdr(p, &info) && info.dli_fname && info.dli_sname)
    md_report_line("  %p points into %s (%s+%lu)", p, info.dli_fname,
                   info.dli_sname,
                   (unsigned long)((uintptr_t)p - (uintptr_t)info.dli_saddr));
  else if (dladdr(p, &info) && info.dli_fname)
    md_report_line("  %p points into the image of %s", p, info.dli_fname);
  else
    md_report_line("  %p is not the start of any block mdebug allocated "
                   "(memory from another allocator, a mapping, or a wild "
                   "pointer)", p);
}

MD_COLD static MD_NOINLINE void report_unknown(void *p, unsigned op,
                                               md_origin_t origin) {
  if (!md_report_begin(MD_ERR_UNKNOWN_POINTER))
    return;
  md_report_line("+++ ALLOCATION %p UNKNOWN POINTER (%s)", p, md_op_name(op));
  describe_pointer(p);
  md_report_origin("detected", op, origin);
  md_report_current_stack();
  md_report_end();
}

/* The block was freed (in the quarantine or after it, not yet reused): its
 * metadata still says by whom. */
MD_COLD static MD_NOINLINE void report_freed(const struct md_block *b,
                                             uint32_t bits, unsigned op,
                                             md_origin_t origin) {
  bool is_free = md_op_is_release(op);
  if (is_free)
    md_snapshot_double_free(b, origin);
  if (!md_report_begin(is_free ? MD_ERR_DOUBLE_FREE : MD_ERR_USE_AFTER_FREE))
    return;
  md_report_line("+++ ALLOCATION %p SIZE %zu %s (%s)", b->user, b->size,
                 is_free ? "DOUBLE FREE" : "USED AFTER FREE", md_op_name(op));
  md_report_origin("allocated", MD_BITS_ALLOC_OP(bits),
                   md_origin_of(b->meta->alloc_origin));
  md_report_origin("freed", MD_BITS_FREE_OP(bits),
                   md_origin_of(b->meta->free_origin));
  md_report_origin(is_free ? "freed again" : "used", op, origin);
  if (MD_BITS_STATE(bits) == MD_STATE_FREED)
    md_report_line("  (the block had left the free_track quarantine and was "
                   "not reused yet)");
  if (b->stacks) {
    md_report_stack("Backtrace at time of allocation:", b->stacks->alloc_stack);
    md_report_stack("Backtrace of original free:", b->stacks->free_stack);
  }
  md_report_current_stack();
  md_report_end();
}

static const char *family_name(enum md_family f) {
  switch (f) {
  case MD_FAMILY_NEW:
    return "operator new";
  case MD_FAMILY_NEW_ARRAY:
    return "operator new[]";
  case MD_FAMILY_NEW_ALIGNED:
    return "aligned operator new";
  case MD_FAMILY_NEW_ARRAY_ALIGNED:
    return "aligned operator new[]";
  default:
    return "malloc";
  }
}

/* The family without its alignment: new and aligned new are both NEW. */
static enum md_family unaligned_family(enum md_family f) {
  return f == MD_FAMILY_NEW_ALIGNED         ? MD_FAMILY_NEW
         : f == MD_FAMILY_NEW_ARRAY_ALIGNED ? MD_FAMILY_NEW_ARRAY
                                            : f;
}

/* A mismatch of aligned and plain operators, as AddressSanitizer words it
 * (its new-delete-type-mismatch): the alignment each side was built for. */
MD_COLD static void report_alignments(uint32_t bits, enum md_family alloc,
                                      unsigned op) {
  enum md_family release = md_op_family(op);
  if (alloc == release || unaligned_family(alloc) != unaligned_family(release))
    return;
  if (alloc != unaligned_family(alloc))
    md_report_line("  the block was allocated aligned to %zu bytes; %s "
                   "releases default-aligned blocks: deleted through a "
                   "pointer to a type of another alignment?",
                   (size_t)1 << MD_BITS_ALIGN_LOG(bits), md_op_name(op));
  else
    md_report_line("  the block was allocated default-aligned; %s releases "
                   "blocks from aligned operator new: deleted through a "
                   "pointer to a type of another alignment?", md_op_name(op));
}

/* given: the pointer the release was given, when it is not the block's
 * start (an array cookie away from it). */
MD_COLD static MD_NOINLINE void report_mismatch(const struct md_block *b,
                                                uint32_t bits, unsigned op,
                                                md_origin_t origin,
                                                const void *given) {
  if (!md_report_begin(MD_ERR_MISMATCH))
    return;
  md_report_line("+++ ALLOCATION %p SIZE %zu ALLOCATED BY %s RELEASED BY %s",
                 b->user, b->size,
                 family_name(md_op_family(MD_BITS_ALLOC_OP(bits))),
                 md_op_name(op));
  md_report_origin("allocated", MD_BITS_ALLOC_OP(bits),
                   md_origin_of(b->meta->alloc_origin));
  md_report_origin("released", op, origin);
  report_alignments(bits, md_op_family(MD_BITS_ALLOC_OP(bits)), op);
  if ((const unsigned char *)given > b->user)
    md_report_line("  %s was given %p, %ld bytes into the block: past the "
                   "array cookie where operator new[] keeps the element count",
                   md_op_name(op), given, (long)((const unsigned char *)given -
                                                 b->user));
  else if (given && (const unsigned char *)given < b->user)
    md_report_line("  %s was given %p, %ld bytes before the block: delete[] "
                   "read an element count there (no destructor ran if it was "
                   "0) and moved the pointer back over it", md_op_name(op),
                   given, (long)(b->user - (const unsigned char *)given));
  md_report_block_stacks(b);
  md_report_current_stack();
  md_report_end();
}

/* Is p a live block? Reports why not. */
static bool verify(void *p, struct md_block *b, unsigned op, md_origin_t origin) {
  uint32_t bits;
  if (MD_UNLIKELY(!md_heap_resolve(p, b, &bits))) {
    report_unknown(p, op, origin);
    return false;
  }
  if (MD_LIKELY(MD_BITS_STATE(bits) == MD_STATE_LIVE))
    return true;
  report_freed(b, bits, op, origin);
  return false;
}

/* ---- release -------------------------------------------------------------- */

/* Does block b (from new[]) start with an array cookie of off bytes: an
 * element count that divides the bytes after it? */
static bool has_cookie(const struct md_block *b, uintptr_t off) {
  if (b->size <= off)
    return false;
  size_t count;
  memcpy(&count, b->user + off - sizeof(count), sizeof(count));
  return count && count <= b->size - off && (b->size - off) % count == 0;
}

/* The block an array cookie away from p, when the program mixed new[] with
 * delete or free (p is past the cookie, inside the block) or new with
 * delete[] (delete[] stepped back over a cookie the block does not have).
 * The cookie is 8 bytes, or the alignment of an over-aligned element type. */
static bool cookie_block(const void *p, enum md_family family, unsigned op,
                         struct md_block *b, uint32_t *bits) {
  for (uintptr_t off = 8; off <= MD_PRIMARY_MAX_ALIGN; off *= 2) {
    if (!md_family_is_array(family)) { /* delete of new[] + cookie */
      if (md_heap_resolve((const unsigned char *)p - off, b, bits) &&
          MD_BITS_STATE(*bits) == MD_STATE_LIVE &&
          md_family_is_array(md_op_family(MD_BITS_ALLOC_OP(*bits))) &&
          (off == 8 || MD_BITS_ALLOC_OP(*bits) == MD_OP_new_array_aligned ||
           MD_BITS_ALLOC_OP(*bits) == MD_OP_new_array_aligned_nothrow) &&
          has_cookie(b, off))
        return true;
    } else { /* delete[] of new - cookie */
      if (md_heap_resolve((const unsigned char *)p + off, b, bits) &&
          MD_BITS_STATE(*bits) == MD_STATE_LIVE &&
          !md_family_is_array(md_op_family(MD_BITS_ALLOC_OP(*bits))) &&
          (off == 8 || op == MD_OP_delete_array_aligned ||
           op == MD_OP_delete_array_sized_aligned ||
           op == MD_OP_delete_array_aligned_nothrow))
        return true;
    }
  }
  return false;
}

/* p is no block's start: a mismatch across an array cookie (reported, and
 * the block released as the program meant), or an unknown pointer. */
MD_COLD static MD_NOINLINE void release_unknown(void *p, enum md_family family,
                                                unsigned op,
                                                md_origin_t origin) {
  struct md_block b;
  uint32_t bits;
  if (!md_op_is_release(op) || !cookie_block(p, family, op, &b, &bits)) {
    report_unknown(p, op, origin);
    return;
  }
  report_mismatch(&b, bits, op, origin, p);
  md_deallocate(b.user, md_op_family(MD_BITS_ALLOC_OP(bits)), op, origin);
}

/* What follows a free's checks when the block does not go to the quarantine:
 * the fill and the hand-back (whose slow path may make system calls). */
MD_NOINLINE void md_release_slow(const struct md_block *b) {
  int saved_errno = errno;
  md_fill_on_free(b);
  md_heap_give(b);
  errno = saved_errno;
}

/* The general free: any pointer, any block, any options. false: p was not
 * a live block (reported, left alone). Touches errno only on its slow
 * paths, which keep it (free never changes errno). */
MD_NOINLINE bool md_deallocate_general(void *p, enum md_family family,
                                                unsigned op,
                                                md_origin_t origin) {
  if (MD_UNLIKELY(md_alloc_mode_get() & MD_MODE_UNSET))
    md_alloc_mode_set();
  struct md_block b;
  uint32_t bits, freed;
  if (MD_UNLIKELY(!md_heap_resolve(p, &b, &bits))) {
    release_unknown(p, family, op, origin);
    return false;
  }
  do {
    if (MD_UNLIKELY(MD_BITS_STATE(bits) != MD_STATE_LIVE)) {
      report_freed(&b, bits, op, origin);
      return false;
    }
    freed = MD_BITS_MAKE(md_opt.free_track ? MD_STATE_QUARANTINED : MD_STATE_FREED,
                         MD_BITS_ALLOC_OP(bits), op, MD_BITS_EPOCH(bits), 0,
                         MD_BITS_LEAD(bits));
  } while (MD_UNLIKELY(!__atomic_compare_exchange_n(
      &b.meta->bits, &bits, freed, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)));
  /* The block is ours alone now. */
  if (MD_UNLIKELY(md_op_family(MD_BITS_ALLOC_OP(bits)) != family))
    report_mismatch(&b, bits, op, origin, NULL);
  if (md_guards_on && MD_UNLIKELY(!md_block_guards_intact(&b)))
    md_guard_check(&b, op, origin);
  md_track_free(&b, bits, origin); /* the profiler (track.h) */
  b.meta->free_origin = md_origin_id(origin);
  if (MD_UNLIKELY(b.stacks != NULL)) {
    int saved_errno = errno; /* the unwinder may read /proc */
    b.stacks->free_stack = md_backtrace_free();
    errno = saved_errno;
  }
  if (md_opt.free_track)
    md_quarantine_push(&b); /* fills it; keeps errno */
  else if (MD_LIKELY(!md_opt.fill_on_free && b.klass))
    md_heap_give_slot_keep_errno(b.klass, b.index);
  else
    md_release_slow(&b);
  return true;
}

/* The fast free's slow turns, each with the block as a struct md_block
 * (slot i of class k at lead 0, size bytes: what md_heap_resolve_plain
 * found). */
MD_NOINLINE MD_RARE_CALL void md_free_mismatch(unsigned k, uint32_t i, uint32_t size,
                                      uint32_t bits, unsigned op,
                                      md_origin_t origin) {
  struct md_block b;
  md_heap_new_block(k, i, size, &b);
  report_mismatch(&b, bits, op, origin, NULL);
}
MD_NOINLINE MD_RARE_CALL void md_free_check_guards(unsigned k, uint32_t i,
                                          uint32_t size, unsigned op,
                                          md_origin_t origin) {
  struct md_block b;
  md_heap_new_block(k, i, size, &b);
  if (!md_block_guards_intact_any(&b))
    md_guard_check(&b, op, origin);
}
MD_COLD MD_NOINLINE MD_RARE_CALL void
md_free_sampled(unsigned k, uint32_t i, uint32_t size, md_origin_t origin) {
  struct md_block b;
  md_heap_new_block(k, i, size, &b);
  md_sample_free(&b, origin);
}
/* The inline free's end with stacks recorded: md_deallocate_general's. */
MD_NOINLINE void md_free_stacked(struct md_block *b) {
  b->stacks = md_stacks_at(b->klass, b->index);
  int saved_errno = errno; /* the unwinder may read /proc */
  b->stacks->free_stack = md_backtrace_free_at(MD_CALLER_FRAME());
  errno = saved_errno;
  if (md_opt.free_track)
    md_quarantine_push(b); /* fills it; keeps errno */
  else if (MD_LIKELY(!md_opt.fill_on_free))
    md_heap_give_slot_keep_errno(b->klass, b->index);
  else
    md_release_slow(b);
}
/* Before init, while recording, or while the exit checks run: kept out of
 * md_deallocate, whose common path is then the inline one. */
MD_NOINLINE void md_deallocate_slow(void *p, enum md_family family,
                                        unsigned op, md_origin_t origin) {
  int saved_errno = errno;
  md_ensure_init();
  if (MD_LIKELY(!md_recording) || md_op_records_itself(op)) {
    md_dealloc_fast(p, family, op, origin);
  } else {
    uint64_t start = md_record_now();
    if (md_dealloc_fast(p, family, op, origin))
      md_record(MD_REC_FREE, (uintptr_t)p, 0, 0, 0, start, md_record_now());
  }
  errno = saved_errno;
}

void md_deallocate(void *p, enum md_family family, unsigned op,
                   md_origin_t origin) {
  md_deallocate_inline(p, family, op, origin);
}

/* realloc within a block's slot: its size, guards and origin change; its
 * state stays LIVE throughout (a racing free sees a live block either way).
 * Bytes it gives up are guard again; bytes it gains hold what they held. */
static void *resize_in_place(const struct md_block *b, uint32_t bits,
                             size_t size, unsigned op, md_origin_t origin) {
  struct md_block nb = *b;
  if (md_guards_on && MD_UNLIKELY(!md_block_guards_intact(b)))
    md_guard_check(b, op, origin);
  uint32_t id = md_origin_id(origin);
  unsigned marks = md_track_resize(b, bits, id, size, origin); /* track.h */
  b->meta->size = (uint32_t)size;
  b->meta->alloc_origin = id;
  nb.size = size;
  if (md_guards_on) {
    size_t n, slack;
    unsigned char *rear = md_block_rear_guard(&nb, &n, &slack);
    md_fill_bytes(rear, slack, MD_GUARD_REAR);
  }
  md_meta_publish(b->meta, (uint32_t)size,
                  MD_BITS_MAKE(MD_STATE_LIVE, op, 0, MD_BITS_EPOCH(bits),
                               (MD_BITS_MARKS(bits) & ~MD_MARK_SAMPLED) | marks,
                               MD_BITS_LEAD(bits)));
  if (__atomic_load_n(&md_access_used, __ATOMIC_RELAXED))
    md_access_keep_new(&nb);
  return b->user;
}

/* *refused: p was not a live block (reported). */
static void *reallocate(void *p, size_t size, unsigned op, md_origin_t origin,
                        bool *refused) {
  *refused = false;
  if (!p)
    return md_allocate(size, 0, md_op_family(op), false, op, origin);
  if (size == 0) { /* glibc: frees and returns NULL */
    md_deallocate(p, md_op_family(op), op, origin);
    return NULL;
  }
  /* Before the in-place path, which md_allocate's check would not see. */
  if (MD_UNLIKELY(size > md_heap.max_size))
    return md_refuse_size(size, 0, op, origin); /* the block stays valid */
  struct md_block b;
  if (!verify(p, &b, op, origin)) {
    *refused = true;
    return NULL;
  }
  uint32_t bits = __atomic_load_n(&b.meta->bits, __ATOMIC_ACQUIRE);
  enum md_family family = md_op_family(MD_BITS_ALLOC_OP(bits));
  if (family != md_op_family(op))
    report_mismatch(&b, bits, op, origin, NULL);
  /* With free_track, always move: a stale pointer to the old block then
   * lands in the quarantine, where writes through it are caught. Without,
   * a block whose slot has room stays where it is, as glibc's would. */
  if (!md_opt.free_track && b.klass && size + md_heap.extra <= b.room &&
      size <= UINT32_MAX)
    return resize_in_place(&b, bits, size, op, origin);
  void *q = md_allocate(size, 0, md_op_family(op), false, op, origin);
  if (!q)
    return NULL; /* the old block stays valid, errno is ENOMEM */
  size_t old = md_block_usable(&b), fresh = size + md_heap.expand;
  memcpy(q, p, old < fresh ? old : fresh);
  md_deallocate(p, family, op, origin);
  return q;
}

void *md_reallocate(void *p, size_t size, unsigned op, md_origin_t origin) {
  bool refused;
  md_ensure_init();
  if (MD_LIKELY(!md_recording))
    return reallocate(p, size, op, origin, &refused);
  uint64_t start = md_record_now();
  void *q = reallocate(p, size, op, origin, &refused);
  if (!refused) /* as in malloc debug, a refused pointer is not recorded */
    md_record(MD_REC_REALLOC, (uintptr_t)q, (uintptr_t)p, 0, size, start,
              md_record_now());
  return q;
}

size_t md_usable_size(void *p, unsigned op, md_origin_t origin) {
  if (!p)
    return 0;
  md_ensure_init();
  struct md_block b;
  if (!verify(p, &b, op, origin))
    return 0;
  return md_block_usable(&b);
}

/* ---- aligned allocation ---------------------------------------------------
 * AddressSanitizer's rules, not glibc 2.36's: an alignment that is not a
 * power of two is an error (glibc's memalign rounds it up, its aligned_alloc
 * too until 2.38), reported at the site and refused with EINVAL. memalign
 * and valloc accept 0 (malloc's alignment), as both glibc and ASan do. */

void *md_memalign(size_t align, size_t size, unsigned op, md_origin_t origin) {
  if (MD_UNLIKELY(!md_is_power_of_two(align)) &&
      (align != 0 || op == MD_OP_aligned_alloc)) {
    md_refuse_alignment(align, size, op, origin);
    return NULL;
  }
  if (MD_UNLIKELY(align > md_heap.max_size)) /* no mapping could hold it */
    return md_refuse_size(size, align, op, origin);
  return md_allocate(size, align, md_op_family(op), false, op, origin);
}

int md_posix_memalign(void **out, size_t align, size_t size, unsigned op,
                      md_origin_t origin) {
  if (!md_is_power_of_two(align) || align % sizeof(void *) != 0)
    return md_refuse_alignment(align, size, op, origin);
  int saved_errno = errno;
  void *p = align > md_heap.max_size
                ? md_refuse_size(size, align, op, origin)
                : md_allocate(size, align, md_op_family(op), false, op, origin);
  errno = saved_errno;
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}
