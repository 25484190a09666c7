/* alloc.c - the checked allocator: every entry point, instrumented or not,
 * ends here. Lays out blocks (chunk.h) on glibc's __libc_malloc family,
 * verifies pointers given back to it, and hands freed blocks to the
 * quarantine or back to glibc.
 *
 * Order on free matters: the table entry changes state first (so a racing
 * second free of the same pointer is seen as a double free), then the checks
 * run, then the block is filled and queued. Never allocates for itself;
 * free keeps errno.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "chunk.h"

static inline size_t round_up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

static inline void *allocate(size_t size, size_t align, enum md_family family,
                            bool zero, unsigned op, md_origin_t origin) {
  size_t prefix = md_layout.prefix, lead = prefix;
  if (MD_UNLIKELY(size > MD_MAX_SIZE)) {
    errno = ENOMEM;
    return NULL;
  }
  size_t usable = size + md_layout.expand, tail = md_layout.tail;
  void *base;
  if (MD_LIKELY(align <= MD_MIN_ALIGN)) {
    base = __libc_malloc(prefix + usable + tail);
  } else {
    if (align > MD_MAX_ALIGN) {
      errno = ENOMEM;
      return NULL;
    }
    lead = round_up(prefix, align);
    base = __libc_memalign(align, lead + usable + tail);
  }
  if (MD_UNLIKELY(!base))
    return NULL; /* glibc set ENOMEM */
  unsigned char *user = (unsigned char *)base + lead;
  struct md_chunk *c = md_chunk_of(user);
  c->tag = md_tag_make(MD_TAG_LIVE, family);
  c->gapped = lead != prefix;
  if (c->gapped)
    ((uint64_t *)c)[-1] = lead - prefix;
  c->size = size;
  c->alloc_op = op;
  c->free_op = 0;
  c->alloc_origin = origin;
  c->free_origin = 0;
  if (md_layout.stacks) {
    struct md_chunk_stacks *st = md_chunk_stacks(c);
    st->alloc_stack = md_backtrace_alloc(size);
    st->free_stack = 0;
  }
  md_guard_write(c);
  if (zero)
    memset(user, 0, usable);
  else if (md_opt.fill_on_alloc)
    md_fill_on_alloc(c);
  /* Only a finished block goes in the table: the exit checks read what the
   * table lists, even from a thread stopped right after this. */
  if (md_track_enabled())
    md_track_insert_live(user);
  return user;
}

/* Calls that record themselves (record_allocs) as a whole. */
static bool records_itself(unsigned op) { return md_op_records_itself(op); }

/* Before init, or while recording: kept out of md_allocate, whose common
 * path is then a jump to allocate with nothing to save or restore. */
static MD_NOINLINE void *allocate_slow(size_t size, size_t align,
                                       enum md_family family, bool zero,
                                       unsigned op, md_origin_t origin) {
  md_ensure_init();
  if (MD_LIKELY(!md_recording) || records_itself(op))
    return allocate(size, align, family, zero, op, origin);
  uint64_t start = md_record_now();
  void *p = allocate(size, align, family, zero, op, origin);
  md_record(align ? MD_REC_MEMALIGN : MD_REC_MALLOC, (uintptr_t)p, 0, align,
            size, start, md_record_now());
  return p;
}

void *md_allocate(size_t size, size_t align, enum md_family family, bool zero,
                  unsigned op, md_origin_t origin) {
  if (MD_LIKELY(__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) == 2 &&
                !md_recording))
    return allocate(size, align, family, zero, op, origin);
  return allocate_slow(size, align, family, zero, op, origin);
}

void md_release(struct md_chunk *c) {
  md_track_before_release();
  __libc_free(md_chunk_base(c));
}

/* ---- reports about the pointer itself ------------------------------------ */

/* A hint for a pointer mdebug never handed out: where does it point? */
static void describe_foreign(const void *p) {
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
                   "(an interior pointer, memory from another allocator, or a "
                   "block freed more than free_track frees ago)", p);
}

static MD_NOINLINE void report_unknown(void *p, unsigned op, md_origin_t origin) {
  if (!md_report_begin(MD_ERR_UNKNOWN_POINTER))
    return;
  md_report_line("+++ ALLOCATION %p UNKNOWN POINTER (%s)", p, md_op_name(op));
  describe_foreign(p);
  md_report_origin("detected", op, origin);
  md_report_current_stack();
  md_report_end();
}

/* The block is in the quarantine: its header is still ours to read. */
static MD_NOINLINE void report_freed(void *p, unsigned op, md_origin_t origin) {
  struct md_chunk *c = md_chunk_of(p);
  bool is_free = md_op_is_release(op);
  if (!md_report_begin(is_free ? MD_ERR_DOUBLE_FREE : MD_ERR_USE_AFTER_FREE))
    return;
  md_report_line("+++ ALLOCATION %p SIZE %zu %s (%s)", p, (size_t)c->size,
                 is_free ? "DOUBLE FREE" : "USED AFTER FREE", md_op_name(op));
  md_report_origin("allocated", c->alloc_op, c->alloc_origin);
  md_report_origin("freed", c->free_op, c->free_origin);
  md_report_origin(is_free ? "freed again" : "used", op, origin);
  md_report_stack("Backtrace at time of allocation:", md_chunk_alloc_stack(c));
  md_report_stack("Backtrace of original free:", md_chunk_free_stack(c));
  md_report_current_stack();
  md_report_end();
}

static MD_NOINLINE void report_tag(void *p, unsigned op, md_origin_t origin) {
  struct md_chunk *c = md_chunk_of(p);
  if (!md_report_begin(MD_ERR_INVALID_TAG))
    return;
  if (md_chunk_is_freed(c))
    md_report_line("+++ ALLOCATION %p USED AFTER FREE (%s)", p, md_op_name(op));
  else
    md_report_line("+++ ALLOCATION %p HAS INVALID TAG %x (%s)", p, c->tag,
                   md_op_name(op));
  md_report_origin("detected", op, origin);
  md_report_current_stack();
  md_report_end();
}

static const char *family_name(enum md_family f) {
  return f == MD_FAMILY_NEW         ? "operator new"
         : f == MD_FAMILY_NEW_ARRAY ? "operator new[]"
                                    : "malloc";
}

static MD_NOINLINE void report_mismatch(struct md_chunk *c, unsigned op,
                                        md_origin_t origin) {
  if (!md_report_begin(MD_ERR_MISMATCH))
    return;
  md_report_line("+++ ALLOCATION %p SIZE %zu ALLOCATED BY %s RELEASED BY %s",
                 md_chunk_user(c), (size_t)c->size,
                 family_name(md_chunk_family(c)), md_op_name(op));
  md_report_origin("allocated", c->alloc_op, c->alloc_origin);
  md_report_origin("released", op, origin);
  md_report_chunk_stacks(c);
  md_report_current_stack();
  md_report_end();
}

/* Is p a live block? Reports why not. With the table off, trusts the tag. */
static bool verify(void *p, unsigned op, md_origin_t origin) {
  if (md_track_enabled()) {
    enum md_track_state st = md_track_lookup(p);
    if (MD_LIKELY(st == MD_TRACK_LIVE))
      return true;
    if (st == MD_TRACK_FREED)
      report_freed(p, op, origin);
    else
      report_unknown(p, op, origin);
    return false;
  }
  if (MD_LIKELY(md_chunk_is_live(md_chunk_of(p))))
    return true;
  report_tag(p, op, origin);
  return false;
}

/* ---- release -------------------------------------------------------------- */

/* false: p was not a live block (reported, left alone). */
static MD_ALWAYS_INLINE bool deallocate(void *p, enum md_family family, unsigned op,
                              md_origin_t origin) {
  struct md_chunk *c = md_chunk_of(p);
  if (md_track_enabled()) {
    enum md_track_state st = md_track_release(p, md_opt.free_track != 0);
    if (MD_UNLIKELY(st != MD_TRACK_LIVE)) {
      if (st == MD_TRACK_FREED)
        report_freed(p, op, origin);
      else
        report_unknown(p, op, origin);
      return false;
    }
  } else if (MD_UNLIKELY(!md_chunk_is_live(c))) {
    report_tag(p, op, origin);
    return false;
  }
  if (MD_UNLIKELY(md_chunk_family(c) != family))
    report_mismatch(c, op, origin);
  md_guard_check(c, op, origin);
  c->tag = (c->tag & ~MD_TAG_STATE_MASK) | MD_TAG_FREED;
  c->free_op = op;
  c->free_origin = origin;
  if (md_layout.stacks)
    md_chunk_stacks(c)->free_stack = md_backtrace_free();
  if (md_opt.free_track) {
    md_quarantine_push(c); /* fills it */
  } else {
    md_fill_on_free(c);
    md_release(c);
  }
  return true;
}

/* record_allocs: kept out of md_deallocate, as allocate_slow is. */
static MD_NOINLINE void deallocate_recorded(void *p, enum md_family family,
                                            unsigned op, md_origin_t origin) {
  uint64_t start = md_record_now();
  if (deallocate(p, family, op, origin))
    md_record(MD_REC_FREE, (uintptr_t)p, 0, 0, 0, start, md_record_now());
}

void md_deallocate(void *p, enum md_family family, unsigned op,
                   md_origin_t origin) {
  if (!p)
    return;
  md_ensure_init();
  int saved_errno = errno;
  if (MD_UNLIKELY(md_recording) && !records_itself(op))
    deallocate_recorded(p, family, op, origin);
  else
    deallocate(p, family, op, origin);
  errno = saved_errno;
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
  if (!verify(p, op, origin)) {
    *refused = true;
    return NULL;
  }
  struct md_chunk *c = md_chunk_of(p);
  enum md_family family = md_chunk_family(c);
  if (family != md_op_family(op))
    report_mismatch(c, op, origin);
  /* Always move: a stale pointer to the old block then lands in the
   * quarantine, where writes through it are caught. */
  void *q = md_allocate(size, 0, md_op_family(op), false, op, origin);
  if (!q)
    return NULL; /* the old block stays valid, errno is ENOMEM */
  size_t old = md_chunk_usable(c), fresh = size + md_layout.expand;
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
  if (!verify(p, op, origin))
    return 0;
  return md_chunk_usable(md_chunk_of(p));
}

/* ---- aligned allocation, with glibc 2.36's rules ------------------------- */

static bool is_power_of_two(size_t x) { return x && !(x & (x - 1)); }

void *md_memalign(size_t align, size_t size, unsigned op, md_origin_t origin) {
  if (align > (MD_SIZE_ALL >> 1) + 1) { /* glibc: EINVAL */
    errno = EINVAL;
    return NULL;
  }
  if (!is_power_of_two(align)) { /* glibc rounds up to a power of two */
    size_t a = MD_MIN_ALIGN;
    while (a < align)
      a <<= 1;
    align = a;
  }
  return md_allocate(size, align, md_op_family(op), false, op, origin);
}

int md_posix_memalign(void **out, size_t align, size_t size, unsigned op,
                      md_origin_t origin) {
  if (!is_power_of_two(align) || align % sizeof(void *) != 0)
    return EINVAL;
  int saved_errno = errno;
  void *p = md_allocate(size, align, md_op_family(op), false, op, origin);
  errno = saved_errno;
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}
