/* entry.c - the C entry points: __mdebug_* (called by instrumented code, with
 * a site) and the standard allocation functions (called by everything else,
 * with the caller's return address standing in for the site). Each is one
 * line into alloc.c (malloc, free and realloc of NULL: into its common
 * paths, inline from alloc.h), after one test: an inert copy of the runtime passes the
 * call on instead (copies.c), as a tail call, so that none of its frames is
 * left on the stack. Prototypes come from abi.def, so a mismatch with the
 * pass fails to compile. The C++ operators are in new_delete.c.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "access.h"
#include "alloc.h"
#include "copies.h"
#include "init.h"
#include "mdebug/version.h"
#include "profiler.h"
#include "record.h"
#include "refuse.h"
#include "stacks.h"

#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS)                           \
  MD_EXPORT RET __mdebug_##NAME MD_WITH_SITE PARAMS;
#include "mdebug/abi.def"

#define SITE md_origin_site(site)
#define CALLER md_origin_pc(__builtin_return_address(0))
#define CALLER_SITE ((const struct mdebug_site *)CALLER)

/* Every entry point tests that this copy is the process's active one
 * (copies.c); the first call of any copy, and every call of an inert one,
 * goes to pass_on_NAME instead, as a tail call (no register to save on the
 * common path, no frame of an inert copy left on the stack). It decides,
 * then runs the call here as __mdebug_NAME (a standard symbol's caller
 * address standing in for the site), or passes it on: to the active copy's
 * __mdebug_NAME (musttail: the prototypes agree), else to the process's
 * NAME (copies.c guarantees one of them for the C calls). */
#define ARGS_SITE(...) (__VA_ARGS__, site)
#define PASS_ON_DEFINE(NAME, RET, PARAMS, ARGS)                                \
  static MD_NOINLINE RET pass_on_##NAME MD_WITH_SITE PARAMS {                  \
    if (md_copy_decide())                                                      \
      return __mdebug_##NAME ARGS_SITE ARGS;                                   \
    if (md_forward.site_##NAME)                                                \
      __attribute__((musttail)) return md_forward.site_##NAME ARGS_SITE ARGS;  \
    return md_forward.plain_##NAME ARGS;                                       \
  }
#define PASS_ON(NAME, site_arg, ...)                                           \
  if (MD_UNLIKELY(md_copy_role != MD_COPY_ACTIVE))                             \
  return pass_on_##NAME(__VA_ARGS__, site_arg)

PASS_ON_DEFINE(malloc, void *, (size_t size), (size))
PASS_ON_DEFINE(calloc, void *, (size_t n, size_t size), (n, size))
PASS_ON_DEFINE(realloc, void *, (void *p, size_t size), (p, size))
PASS_ON_DEFINE(reallocarray, void *, (void *p, size_t n, size_t size),
               (p, n, size))
PASS_ON_DEFINE(free, void, (void *p), (p))
PASS_ON_DEFINE(posix_memalign, int, (void **out, size_t align, size_t size),
               (out, align, size))
PASS_ON_DEFINE(aligned_alloc, void *, (size_t align, size_t size),
               (align, size))
PASS_ON_DEFINE(memalign, void *, (size_t align, size_t size), (align, size))
PASS_ON_DEFINE(valloc, void *, (size_t size), (size))
PASS_ON_DEFINE(pvalloc, void *, (size_t size), (size))
PASS_ON_DEFINE(malloc_usable_size, size_t, (void *p), (p))
PASS_ON_DEFINE(strdup, char *, (const char *s), (s))
PASS_ON_DEFINE(strndup, char *, (const char *s, size_t n), (s, n))

/* Instrumented modules call this from a constructor; its name carries the
 * ABI version (version.h), so a stale runtime fails to link.
 * It also pins the calling module in memory (RTLD_NODELETE): blocks keep
 * pointers to its site descriptors, which a dlclose would otherwise unmap
 * while the blocks live on. */
MD_EXPORT void __mdebug_version_mismatch_check_v7(void) {
  if (MD_UNLIKELY(!md_copy_active())) {
    /* A tail call: the active copy must see this caller's address. */
    if (md_forward.version_check)
      __attribute__((musttail)) return md_forward.version_check();
    return;
  }
  md_access_prepare(); /* its code may probe before mdebug starts */
  Dl_info caller, self;
  if (!dladdr(__builtin_return_address(0), &caller) || !caller.dli_fname ||
      !caller.dli_fname[0])
    return;
  if (dladdr((void *)__mdebug_version_mismatch_check_v7, &self) &&
      self.dli_fbase == caller.dli_fbase)
    return; /* the runtime's own module (the executable, usually) */
  dlopen(caller.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
  if (md_init_state == 2 && (md_backtrace_enabled() || md_sample_configured()))
    md_unwind_refresh_code(); /* its code can now appear in stacks */
}
_Static_assert(MDEBUG_ABI_VERSION == 7, "rename the check symbol above");

/* An inert copy's constructor calls this through the dynamic linker, which
 * binds it to the active copy (copies.c): the caller's code is then left out
 * of stacks like the runtime's own. */
MD_EXPORT void __mdebug_copy_loaded_v1(const void *text_begin,
                                       const void *text_end) {
  if (!md_copy_active())
    return;
  md_unwind_add_runtime_code((uintptr_t)text_begin, (uintptr_t)text_end);
  if (__atomic_load_n(&md_init_state, __ATOMIC_ACQUIRE) == 2 &&
      (md_backtrace_enabled() || md_sample_configured()))
    md_unwind_refresh_code(); /* its code may now lie between frames */
}

static void *calloc_impl(size_t n, size_t size, unsigned op, md_origin_t o) {
  size_t total;
  md_ensure_init();
  uint64_t start = MD_UNLIKELY(md_recording) ? md_record_now() : 0;
  void *p = NULL;
  if (MD_UNLIKELY(__builtin_mul_overflow(n, size, &total)))
    p = md_refuse_product(n, size, op, o); /* reported at the site */
  else
    p = md_allocate(total, 0, md_op_family(op), true, op, o);
  if (MD_UNLIKELY(md_recording))
    md_record(MD_REC_CALLOC, (uintptr_t)p, 0, n, size, start, md_record_now());
  return p;
}

static void *reallocarray_impl(void *p, size_t n, size_t size, unsigned op,
                               md_origin_t o) {
  size_t total;
  if (MD_UNLIKELY(__builtin_mul_overflow(n, size, &total)))
    return md_refuse_product(n, size, op, o); /* p is left alone */
  return md_reallocate(p, total, op, o);
}

static size_t page_size(void) {
  static size_t cached;
  if (!cached)
    cached = (size_t)sysconf(_SC_PAGESIZE);
  return cached;
}

static void *pvalloc_impl(size_t size, unsigned op, md_origin_t o) {
  size_t page = page_size(), rounded;
  if (MD_UNLIKELY(__builtin_add_overflow(size, page - 1, &rounded)))
    return md_refuse_pvalloc(size, page, op, o);
  rounded &= ~(page - 1);
  return md_memalign(page, rounded ? rounded : page, op, o);
}

static char *strndup_impl(const char *s, size_t n, unsigned op, md_origin_t o) {
  size_t len = strnlen(s, n);
  char *d = md_allocate(len + 1, 0, md_op_family(op), false, op, o);
  if (d) {
    memcpy(d, s, len);
    d[len] = '\0';
  }
  return d;
}

/* ---- called by instrumented code ---------------------------------------- */
void *__mdebug_malloc(size_t size, const struct mdebug_site *site) {
  PASS_ON(malloc, site, size);
  return md_allocate_inline(size, 0, md_op_family(MD_OP_malloc), false,
                            MD_OP_malloc, SITE);
}
void *__mdebug_calloc(size_t n, size_t size, const struct mdebug_site *site) {
  PASS_ON(calloc, site, n, size);
  return calloc_impl(n, size, MD_OP_calloc, SITE);
}
void *__mdebug_realloc(void *p, size_t size, const struct mdebug_site *site) {
  PASS_ON(realloc, site, p, size);
  return md_reallocate_inline(p, size, MD_OP_realloc, SITE);
}
void *__mdebug_reallocarray(void *p, size_t n, size_t size,
                            const struct mdebug_site *site) {
  PASS_ON(reallocarray, site, p, n, size);
  return reallocarray_impl(p, n, size, MD_OP_reallocarray, SITE);
}
void __mdebug_free(void *p, const struct mdebug_site *site) {
  PASS_ON(free, site, p);
  md_deallocate_inline(p, md_op_family(MD_OP_free), MD_OP_free, SITE);
}
int __mdebug_posix_memalign(void **out, size_t align, size_t size,
                            const struct mdebug_site *site) {
  PASS_ON(posix_memalign, site, out, align, size);
  return md_posix_memalign(out, align, size, MD_OP_posix_memalign, SITE);
}
void *__mdebug_aligned_alloc(size_t align, size_t size,
                             const struct mdebug_site *site) {
  PASS_ON(aligned_alloc, site, align, size);
  return md_memalign(align, size, MD_OP_aligned_alloc, SITE);
}
void *__mdebug_memalign(size_t align, size_t size,
                        const struct mdebug_site *site) {
  PASS_ON(memalign, site, align, size);
  return md_memalign(align, size, MD_OP_memalign, SITE);
}
void *__mdebug_valloc(size_t size, const struct mdebug_site *site) {
  PASS_ON(valloc, site, size);
  return md_memalign(page_size(), size, MD_OP_valloc, SITE);
}
void *__mdebug_pvalloc(size_t size, const struct mdebug_site *site) {
  PASS_ON(pvalloc, site, size);
  return pvalloc_impl(size, MD_OP_pvalloc, SITE);
}
size_t __mdebug_malloc_usable_size(void *p, const struct mdebug_site *site) {
  PASS_ON(malloc_usable_size, site, p);
  return md_usable_size(p, MD_OP_malloc_usable_size, SITE);
}
char *__mdebug_strdup(const char *s, const struct mdebug_site *site) {
  PASS_ON(strdup, site, s);
  return strndup_impl(s, MD_SIZE_ALL, MD_OP_strdup, SITE);
}
char *__mdebug_strndup(const char *s, size_t n, const struct mdebug_site *site) {
  PASS_ON(strndup, site, s, n);
  return strndup_impl(s, n, MD_OP_strndup, SITE);
}

/* ---- the standard symbols, for code that was not instrumented ----------- */
MD_EXPORT void *malloc(size_t size) {
  PASS_ON(malloc, CALLER_SITE, size);
  return md_allocate_inline(size, 0, md_op_family(MD_OP_malloc), false,
                            MD_OP_malloc, CALLER);
}
MD_EXPORT void *calloc(size_t n, size_t size) {
  PASS_ON(calloc, CALLER_SITE, n, size);
  return calloc_impl(n, size, MD_OP_calloc, CALLER);
}
MD_EXPORT void *realloc(void *p, size_t size) {
  PASS_ON(realloc, CALLER_SITE, p, size);
  return md_reallocate_inline(p, size, MD_OP_realloc, CALLER);
}
MD_EXPORT void *reallocarray(void *p, size_t n, size_t size) {
  PASS_ON(reallocarray, CALLER_SITE, p, n, size);
  return reallocarray_impl(p, n, size, MD_OP_reallocarray, CALLER);
}
MD_EXPORT void free(void *p) {
  PASS_ON(free, CALLER_SITE, p);
  md_deallocate_inline(p, md_op_family(MD_OP_free), MD_OP_free, CALLER);
}
MD_EXPORT int posix_memalign(void **out, size_t align, size_t size) {
  PASS_ON(posix_memalign, CALLER_SITE, out, align, size);
  return md_posix_memalign(out, align, size, MD_OP_posix_memalign, CALLER);
}
MD_EXPORT void *aligned_alloc(size_t align, size_t size) {
  PASS_ON(aligned_alloc, CALLER_SITE, align, size);
  return md_memalign(align, size, MD_OP_aligned_alloc, CALLER);
}
MD_EXPORT void *memalign(size_t align, size_t size) {
  PASS_ON(memalign, CALLER_SITE, align, size);
  return md_memalign(align, size, MD_OP_memalign, CALLER);
}
MD_EXPORT void *valloc(size_t size) {
  PASS_ON(valloc, CALLER_SITE, size);
  return md_memalign(page_size(), size, MD_OP_valloc, CALLER);
}
MD_EXPORT void *pvalloc(size_t size) {
  PASS_ON(pvalloc, CALLER_SITE, size);
  return pvalloc_impl(size, MD_OP_pvalloc, CALLER);
}
MD_EXPORT size_t malloc_usable_size(void *p) {
  PASS_ON(malloc_usable_size, CALLER_SITE, p);
  return md_usable_size(p, MD_OP_malloc_usable_size, CALLER);
}
/* glibc's cfree, gone from the headers but still exported. */
MD_EXPORT void cfree(void *p) {
  PASS_ON(free, CALLER_SITE, p);
  md_deallocate(p, md_op_family(MD_OP_free), MD_OP_free, CALLER);
}
/* Defined here too so that a block strdup'ed by code that was not
 * instrumented is charged to that code, not to libc. */
MD_EXPORT char *strdup(const char *s) {
  PASS_ON(strdup, CALLER_SITE, s);
  return strndup_impl(s, MD_SIZE_ALL, MD_OP_strdup, CALLER);
}
MD_EXPORT char *strndup(const char *s, size_t n) {
  PASS_ON(strndup, CALLER_SITE, s, n);
  return strndup_impl(s, n, MD_OP_strndup, CALLER);
}
