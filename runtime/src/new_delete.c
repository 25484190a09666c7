/* new_delete.c - C++ operator new and delete in every form, as
 * __mdebug_* entry points and as the standard (mangled) symbols, written in C.
 *
 * A throwing new that fails calls the installed new-handler and retries, then
 * throws std::bad_alloc through libstdc++'s own helper. Those libstdc++
 * symbols are weak, so C programs link without libstdc++; a C++ program
 * always has them. The nothrow forms loop the same way (as libstdc++'s do,
 * and the standard says) and return NULL when no handler is installed; a
 * handler that throws bad_alloc from a nothrow new is not caught here (C
 * cannot): the exception leaves the nothrow new, where libstdc++ returns
 * NULL.
 * A request refused outright (refuse.c: over max_allocation_size, an
 * alignment that is not a power of two) is reported, then throws at once:
 * no new-handler can make it possible, and retrying would loop forever.
 * The aligned operators (std::align_val_t) are families of their own
 * (ops.def): an aligned block given to plain delete, or a plain one to
 * aligned delete, is an alloc-dealloc mismatch. A sized delete is given the
 * size the program thinks the block has, an aligned delete the alignment:
 * when the block, of the delete's own family, was allocated with another
 * size or alignment, that is reported (AddressSanitizer's
 * new-delete-type-mismatch: an object deleted through a pointer to a type of
 * another size or alignment, without a virtual destructor), then the block
 * is released all the same. An inert copy of the runtime passes every call on
 * (copies.c), as entry.c does. Never allocates for itself.
 */
#include <stdlib.h>

#include "base.h"
#include "alloc.h"
#include "copies.h"
#include "heap.h"
#include "mdebug/site.h"
#include "origin.h"
#include "platform.h"
#include "refuse.h"
#include "report.h"
#include "site.h"

#define SITE md_origin_site(site)
#define CALLER md_origin_pc(__builtin_return_address(0))
#define CALLER_SITE ((const struct mdebug_site *)CALLER)

typedef void (*new_handler_t)(void);
/* std::get_new_handler() and std::__throw_bad_alloc() */
extern new_handler_t _ZSt15get_new_handlerv(void) __attribute__((weak));
extern void _ZSt17__throw_bad_allocv(void) __attribute__((weak, noreturn));

/* After a try that found no memory: true to try again (a new-handler ran);
 * without a handler, false for nothrow, otherwise throws bad_alloc. */
static bool new_failed(bool nothrow) {
  new_handler_t handler =
      _ZSt15get_new_handlerv ? _ZSt15get_new_handlerv() : NULL;
  if (handler) {
    handler();
    return true;
  }
  if (nothrow)
    return false;
  if (_ZSt17__throw_bad_allocv)
    _ZSt17__throw_bad_allocv();
  md_die("operator new: out of memory and no C++ runtime to throw bad_alloc");
}

/* A request refused (refuse.c: reported there unless
 * allocator_may_return_null): nothrow returns NULL; the throwing forms throw
 * bad_alloc at once, without the new-handler, which could free memory and
 * return forever without ever making the request possible. */
static MD_NOINLINE void *new_refused(bool nothrow) {
  if (nothrow)
    return NULL;
  if (_ZSt17__throw_bad_allocv)
    _ZSt17__throw_bad_allocv();
  md_die("operator new: request refused and no C++ runtime to throw "
         "bad_alloc");
}

/* An aligned new's block keeps the alignment it asked for (heap.h:
 * MD_BITS_ALIGN_LOG), for aligned delete to check. Set after the
 * allocation, so that no other allocation pays for it: the block is this
 * thread's alone until new returns, and every other change to a live
 * block's bits is atomic too (or made with this thread stopped). */
static MD_NOINLINE void keep_alignment(void *p, size_t align) {
  struct md_block b;
  uint32_t bits;
  if (md_heap_resolve(p, &b, &bits))
    __atomic_fetch_or(&b.meta->bits,
                      MD_BITS_MAKE(0, 0, md_align_log(align), 0, 0, 0),
                      __ATOMIC_RELAXED);
}

static void *new_impl(size_t size, size_t align, bool nothrow, unsigned op,
                      md_origin_t o) {
  /* C++ requires a power of two (align_val_t); 0 is the plain forms'. */
  if (MD_UNLIKELY(align &&
                  (!md_is_power_of_two(align) || align > md_heap.max_size))) {
    if (!md_is_power_of_two(align))
      md_refuse_alignment(align, size, op, o);
    else
      md_refuse_size(size, align, op, o);
    return new_refused(nothrow);
  }
  for (;;) {
    void *p = md_allocate(size, align, md_op_family(op), false, op, o);
    if (MD_LIKELY(p != NULL)) {
      if (align) /* a constant 0 for the plain forms */
        keep_alignment(p, align);
      return p;
    }
    if (size > md_heap.max_size) /* refused by md_allocate */
      return new_refused(nothrow);
    if (!new_failed(nothrow))
      return NULL;
  }
}

/* An inert copy with no operator new to pass the call on to (no copy is
 * active, and the process's is this copy's own): the process's malloc,
 * with operator new's rules. */
static MD_NOINLINE void *new_elsewhere(size_t size, size_t align,
                                       bool nothrow) {
  for (;;) {
    void *p = align ? md_forward.plain_memalign(align, size)
                    : md_forward.plain_malloc(size);
    if (p || !new_failed(nothrow))
      return p;
  }
}

/* As in entry.c: each entry point tests that this copy is the active one;
 * the first call, and every call of an inert copy, tail-calls pass_on_NAME,
 * which decides, then runs the call here or passes it on: to the active
 * copy's __mdebug_NAME, else the process's operator, else (the only one in
 * reach is this copy's own) the process's malloc or free. */
#define PASS_ON(NAME, PARAMS, site_arg)                                        \
  if (MD_UNLIKELY(md_copy_role != MD_COPY_ACTIVE))                             \
  return pass_on_##NAME ARGS_SITE_##PARAMS(site_arg)

#define NEW_PAIR(NAME, SYMBOL, NOTHROW, PARAMS, ALIGN)                         \
  MD_EXPORT void *__mdebug_##NAME PARAMS_SITE_##PARAMS;                        \
  static MD_NOINLINE void *pass_on_##NAME PARAMS_SITE_##PARAMS {               \
    if (md_copy_decide())                                                      \
      return __mdebug_##NAME ARGS_SITE_##PARAMS(site);                         \
    if (md_forward.site_##NAME)                                                \
      __attribute__((musttail)) return md_forward.site_##NAME                  \
          ARGS_SITE_##PARAMS(site);                                            \
    if (md_forward.plain_##NAME)                                               \
      return md_forward.plain_##NAME ARGS_##PARAMS;                            \
    return new_elsewhere(size, ALIGN, NOTHROW);                                \
  }                                                                            \
  MD_EXPORT void *__mdebug_##NAME PARAMS_SITE_##PARAMS {                       \
    PASS_ON(NAME, PARAMS, site);                                               \
    return new_impl(size, ALIGN, NOTHROW, MD_OP_##NAME, SITE);                 \
  }                                                                            \
  MD_EXPORT void *SYMBOL PARAMS_##PARAMS {                                     \
    PASS_ON(NAME, PARAMS, CALLER_SITE);                                        \
    return new_impl(size, ALIGN, NOTHROW, MD_OP_##NAME, CALLER);               \
  }

/* A sized delete: the size it was given against the block's. */
MD_COLD static MD_NOINLINE void report_size_mismatch(const struct md_block *b,
                                                     uint32_t bits, size_t size,
                                                     unsigned op,
                                                     md_origin_t o) {
  if (!md_report_begin(MD_ERR_SIZE_MISMATCH))
    return;
  md_report_line("+++ ALLOCATION %p SIZE %zu RELEASED WITH SIZE %zu (%s)",
                 b->user, b->size, size, md_op_name(op));
  md_report_origin("allocated", MD_BITS_ALLOC_OP(bits),
                   md_origin_of(b->meta->alloc_origin));
  md_report_origin("released", op, o);
  md_report_line("  the block has %zu bytes; %s was told %zu: deleted "
                 "through a pointer to a type of another size?", b->size,
                 md_op_name(op), size);
  md_report_block_stacks(b);
  md_report_current_stack();
  md_report_end();
}

/* An aligned delete: the alignment it was given against the one the
 * block was allocated with (both from aligned operators: a mix of aligned
 * and plain ones is a mismatch of families, md_deallocate's to report). */
MD_COLD static MD_NOINLINE void report_align_mismatch(const struct md_block *b,
                                                      uint32_t bits,
                                                      size_t align, unsigned op,
                                                      md_origin_t o) {
  if (!md_report_begin(MD_ERR_ALIGN_MISMATCH))
    return;
  size_t had = (size_t)1 << MD_BITS_ALIGN_LOG(bits);
  md_report_line("+++ ALLOCATION %p SIZE %zu ALIGNED TO %zu RELEASED WITH "
                 "ALIGNMENT %zu (%s)", b->user, b->size, had, align,
                 md_op_name(op));
  md_report_origin("allocated", MD_BITS_ALLOC_OP(bits),
                   md_origin_of(b->meta->alloc_origin));
  md_report_origin("released", op, o);
  md_report_line("  the block was allocated aligned to %zu bytes; %s was "
                 "told %zu: deleted through a pointer to a type of another "
                 "alignment?", had, md_op_name(op), align);
  md_report_block_stacks(b);
  md_report_current_stack();
  md_report_end();
}

#define UNSIZED SIZE_MAX /* release_checked's size for an unsized delete */

/* A sized or aligned delete: what it was told against the block, then the
 * release. Only these forms come here; plain delete goes straight to
 * md_deallocate. */
static void release_checked(void *ptr, size_t size, size_t align, unsigned op,
                            md_origin_t o) {
  struct md_block b;
  uint32_t bits;
  /* A pointer that is no live block of this family is md_deallocate's to
   * report (unknown pointer, double free, mismatch). */
  if (ptr && md_heap_resolve(ptr, &b, &bits) &&
      MD_BITS_STATE(bits) == MD_STATE_LIVE &&
      md_op_family(MD_BITS_ALLOC_OP(bits)) == md_op_family(op)) {
    if (MD_UNLIKELY(size != UNSIZED && b.size != size))
      report_size_mismatch(&b, bits, size, op, o);
    if (MD_UNLIKELY(align && md_align_log(align) != MD_BITS_ALIGN_LOG(bits)))
      report_align_mismatch(&b, bits, align, op, o);
  }
  md_deallocate(ptr, md_op_family(op), op, o);
}

/* ---- the array cookie ------------------------------------------------------
 * new T[n] of a T with a destructor asks operator new[] for a cookie (8
 * bytes, or alignof(T) when that is more) plus n * sizeof(T) bytes, stores
 * n in the cookie's last 8 bytes and hands the program the address after
 * it; delete[] reads n back there, runs n destructors, and gives operator
 * delete[] the block's start. A program write before its first element
 * (p[-1]) lands in the cookie: inside the block, so no bounds check sees
 * it, and delete[] would then run the wrong number of destructors, over
 * memory that is not the array's. The pass sends the count delete[] read
 * through __mdebug_array_cookie before the destructors run. */

MD_COLD static MD_NOINLINE void report_cookie(const struct md_block *b,
                                              uint32_t bits, size_t at,
                                              size_t count, size_t right,
                                              size_t elem_size, md_origin_t o) {
  if (!md_report_begin(MD_ERR_ARRAY_COOKIE))
    return;
  md_report_line("+++ ALLOCATION %p SIZE %zu ARRAY COOKIE OVERWRITTEN "
                 "(operator delete[])", b->user, b->size);
  md_report_line("  allocation[%zu..%zu] holds the element count: %zu, "
                 "expected %zu (%zu bytes after the %zu-byte cookie, "
                 "elements of %zu bytes)", at, at + 7, count, right,
                 b->size - at - 8, at + 8, elem_size);
  md_report_origin("allocated", MD_BITS_ALLOC_OP(bits),
                   md_origin_of(b->meta->alloc_origin));
  md_report_origin("released", MD_OP_delete_array, o);
  md_report_line("  a write before the array's first element (p[-1], a "
                 "negative index) overwrote the count, or delete[] was given "
                 "an array of another element type: delete[] runs %zu "
                 "destructor%s (the elements new[] made), not %zu", right,
                 right == 1 ? "" : "s", count);
  md_report_block_stacks(b);
  md_report_current_stack();
  md_report_end();
}

/* A cookie is at most MD_PRIMARY_MAX_ALIGN bytes (the largest alignment of
 * an element type the heap gives; larger ones come from the secondary, 4096
 * is as far as cookie_block in alloc.c looks too). */
MD_EXPORT size_t __mdebug_array_cookie(const void *count_at, size_t count,
                                       size_t elem_size,
                                       const struct mdebug_site *site) {
  struct md_block b;
  uint32_t bits;
  if (MD_UNLIKELY(!md_copy_active()) || !elem_size)
    return count;
  /* The block starts at the cookie's start: 8 bytes, or a power of two up
   * to the largest alignment, before the count's end. Any other pointer
   * (a mismatch, a double delete[], memory of another allocator) is
   * operator delete[]'s to report. A block already freed (not reused)
   * gets no destructors run over it, as AddressSanitizer's cookie check
   * does: delete[] then reports the double free instead of running
   * destructors over freed memory first. */
  const unsigned char *end = (const unsigned char *)count_at + 8;
  for (size_t cookie = 8; cookie <= MD_PRIMARY_MAX_ALIGN; cookie *= 2) {
    if (!md_heap_resolve(end - cookie, &b, &bits))
      continue;
    if (MD_BITS_STATE(bits) != MD_STATE_LIVE)
      return md_family_is_array(md_op_family(MD_BITS_ALLOC_OP(bits))) ? 0
                                                                      : count;
    size_t bytes;
    if (MD_LIKELY(!__builtin_mul_overflow(count, elem_size, &bytes) &&
                  bytes + cookie == b.size) ||
        !md_family_is_array(md_op_family(MD_BITS_ALLOC_OP(bits))) ||
        b.size < cookie || (b.size - cookie) % elem_size != 0)
      return count; /* right, or not a block new[] made for this type */
    size_t right = (b.size - cookie) / elem_size;
    report_cookie(&b, bits, cookie - 8, count, right, elem_size, SITE);
    return right;
  }
  return count;
}

/* How each shape of delete releases (z: sized, a: aligned). */
#define RELEASE_p(op, o) md_deallocate(ptr, md_op_family(op), op, o)
#define RELEASE_pn RELEASE_p
#define RELEASE_pa(op, o) release_checked(ptr, UNSIZED, align, op, o)
#define RELEASE_pan RELEASE_pa
#define RELEASE_pz(op, o) release_checked(ptr, size, 0, op, o)
#define RELEASE_pza(op, o) release_checked(ptr, size, align, op, o)

#define DELETE_PAIR(NAME, SYMBOL, PARAMS)                                      \
  MD_EXPORT void __mdebug_##NAME PARAMS_SITE_##PARAMS;                         \
  static MD_NOINLINE void pass_on_##NAME PARAMS_SITE_##PARAMS {                \
    if (md_copy_decide())                                                      \
      __mdebug_##NAME ARGS_SITE_##PARAMS(site);                                \
    else if (md_forward.site_##NAME)                                           \
      __attribute__((musttail)) return md_forward.site_##NAME                  \
          ARGS_SITE_##PARAMS(site);                                            \
    else if (md_forward.plain_##NAME)                                          \
      md_forward.plain_##NAME ARGS_##PARAMS;                                   \
    else                                                                       \
      md_forward.plain_free(ptr);                                              \
  }                                                                            \
  MD_EXPORT void __mdebug_##NAME PARAMS_SITE_##PARAMS {                        \
    PASS_ON(NAME, PARAMS, site);                                               \
    RELEASE_##PARAMS(MD_OP_##NAME, SITE);                                      \
  }                                                                            \
  MD_EXPORT void SYMBOL PARAMS_##PARAMS {                                      \
    PASS_ON(NAME, PARAMS, CALLER_SITE);                                        \
    RELEASE_##PARAMS(MD_OP_##NAME, CALLER);                                    \
  }

/* Parameter lists by shape (a = alignment, n = nothrow tag, z = size). */
#define PARAMS_z (size_t size)
#define PARAMS_zn (size_t size, const void *nothrow)
#define PARAMS_za (size_t size, size_t align)
#define PARAMS_zan (size_t size, size_t align, const void *nothrow)
#define PARAMS_p (void *ptr)
#define PARAMS_pz (void *ptr, size_t size)
#define PARAMS_pa (void *ptr, size_t align)
#define PARAMS_pza (void *ptr, size_t size, size_t align)
#define PARAMS_pn (void *ptr, const void *nothrow)
#define PARAMS_pan (void *ptr, size_t align, const void *nothrow)
/* Their arguments, to pass a call on. */
#define ARGS_z (size)
#define ARGS_zn (size, nothrow)
#define ARGS_za (size, align)
#define ARGS_zan (size, align, nothrow)
#define ARGS_p (ptr)
#define ARGS_pz (ptr, size)
#define ARGS_pa (ptr, align)
#define ARGS_pza (ptr, size, align)
#define ARGS_pn (ptr, nothrow)
#define ARGS_pan (ptr, align, nothrow)
#define ARGS_SITE_z(S) (size, S)
#define ARGS_SITE_zn(S) (size, nothrow, S)
#define ARGS_SITE_za(S) (size, align, S)
#define ARGS_SITE_zan(S) (size, align, nothrow, S)
#define ARGS_SITE_p(S) (ptr, S)
#define ARGS_SITE_pz(S) (ptr, size, S)
#define ARGS_SITE_pa(S) (ptr, align, S)
#define ARGS_SITE_pza(S) (ptr, size, align, S)
#define ARGS_SITE_pn(S) (ptr, nothrow, S)
#define ARGS_SITE_pan(S) (ptr, align, nothrow, S)
#define S const struct mdebug_site *site
#define PARAMS_SITE_z (size_t size, S)
#define PARAMS_SITE_zn (size_t size, const void *nothrow, S)
#define PARAMS_SITE_za (size_t size, size_t align, S)
#define PARAMS_SITE_zan (size_t size, size_t align, const void *nothrow, S)
#define PARAMS_SITE_p (void *ptr, S)
#define PARAMS_SITE_pz (void *ptr, size_t size, S)
#define PARAMS_SITE_pa (void *ptr, size_t align, S)
#define PARAMS_SITE_pza (void *ptr, size_t size, size_t align, S)
#define PARAMS_SITE_pn (void *ptr, const void *nothrow, S)
#define PARAMS_SITE_pan (void *ptr, size_t align, const void *nothrow, S)

/* Declarations from abi.def check every definition below against it. */
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS)                           \
  MD_EXPORT RET __mdebug_##NAME MD_WITH_SITE PARAMS;                           \
  MD_EXPORT RET SYMBOL PARAMS;
#include "mdebug/abi.def"

NEW_PAIR(new, _Znwm, false, z, 0)
NEW_PAIR(new_array, _Znam, false, z, 0)
NEW_PAIR(new_nothrow, _ZnwmRKSt9nothrow_t, true, zn, 0)
NEW_PAIR(new_array_nothrow, _ZnamRKSt9nothrow_t, true, zn, 0)
NEW_PAIR(new_aligned, _ZnwmSt11align_val_t, false, za, align)
NEW_PAIR(new_array_aligned, _ZnamSt11align_val_t, false, za, align)
NEW_PAIR(new_aligned_nothrow, _ZnwmSt11align_val_tRKSt9nothrow_t, true, zan, align)
NEW_PAIR(new_array_aligned_nothrow, _ZnamSt11align_val_tRKSt9nothrow_t, true, zan, align)

DELETE_PAIR(delete, _ZdlPv, p)
DELETE_PAIR(delete_array, _ZdaPv, p)
DELETE_PAIR(delete_sized, _ZdlPvm, pz)
DELETE_PAIR(delete_array_sized, _ZdaPvm, pz)
DELETE_PAIR(delete_aligned, _ZdlPvSt11align_val_t, pa)
DELETE_PAIR(delete_array_aligned, _ZdaPvSt11align_val_t, pa)
DELETE_PAIR(delete_sized_aligned, _ZdlPvmSt11align_val_t, pza)
DELETE_PAIR(delete_array_sized_aligned, _ZdaPvmSt11align_val_t, pza)
DELETE_PAIR(delete_nothrow, _ZdlPvRKSt9nothrow_t, pn)
DELETE_PAIR(delete_array_nothrow, _ZdaPvRKSt9nothrow_t, pn)
DELETE_PAIR(delete_aligned_nothrow, _ZdlPvSt11align_val_tRKSt9nothrow_t, pan)
DELETE_PAIR(delete_array_aligned_nothrow, _ZdaPvSt11align_val_tRKSt9nothrow_t, pan)
