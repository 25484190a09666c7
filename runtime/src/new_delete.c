/* new_delete.c - C++ operator new and delete in every form, as
 * __mdebug_* entry points and as the standard (mangled) symbols, written in C.
 *
 * A throwing new that fails calls the installed new-handler and retries, then
 * throws std::bad_alloc through libstdc++'s own helper. Those libstdc++
 * symbols are weak, so C programs link without libstdc++; a C++ program
 * always has them. nothrow forms return NULL without calling the handler.
 * Sized and aligned deletes release like plain delete (the block knows its
 * own size and alignment). Never allocates for itself.
 */
#include <stdlib.h>

#include "internal.h"

#define SITE md_origin_site(site)
#define CALLER md_origin_pc(__builtin_return_address(0))

typedef void (*new_handler_t)(void);
/* std::get_new_handler() and std::__throw_bad_alloc() */
extern new_handler_t _ZSt15get_new_handlerv(void) __attribute__((weak));
extern void _ZSt17__throw_bad_allocv(void) __attribute__((weak, noreturn));

static void *new_impl(size_t size, size_t align, bool nothrow, unsigned op,
                      md_origin_t o) {
  for (;;) {
    void *p = md_allocate(size, align, md_op_family(op), false, op, o);
    if (p || nothrow)
      return p;
    new_handler_t handler = _ZSt15get_new_handlerv ? _ZSt15get_new_handlerv() : NULL;
    if (handler) {
      handler();
      continue;
    }
    if (_ZSt17__throw_bad_allocv)
      _ZSt17__throw_bad_allocv();
    md_die("operator new: out of memory and no C++ runtime to throw bad_alloc");
  }
}

/* The family of each call comes from ops.def (md_op_family). */
#define NEW_PAIR(NAME, SYMBOL, NOTHROW, PARAMS, ALIGN)                         \
  MD_EXPORT void *__mdebug_##NAME PARAMS_SITE_##PARAMS {                       \
    return new_impl(size, ALIGN, NOTHROW, MD_OP_##NAME, SITE);                 \
  }                                                                            \
  MD_EXPORT void *SYMBOL PARAMS_##PARAMS {                                     \
    return new_impl(size, ALIGN, NOTHROW, MD_OP_##NAME, CALLER);               \
  }

#define DELETE_PAIR(NAME, SYMBOL, PARAMS)                                      \
  MD_EXPORT void __mdebug_##NAME PARAMS_SITE_##PARAMS {                        \
    md_deallocate(ptr, md_op_family(MD_OP_##NAME), MD_OP_##NAME, SITE);        \
  }                                                                            \
  MD_EXPORT void SYMBOL PARAMS_##PARAMS {                                      \
    md_deallocate(ptr, md_op_family(MD_OP_##NAME), MD_OP_##NAME, CALLER);      \
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
#define MD_WITH_SITE(...) (__VA_ARGS__, const struct mdebug_site *site)
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
