/* base.h - what every file of the runtime shares: the section its code
 * goes into, the attribute macros, the call kinds (abi.def, ops.def), the
 * allocation families and the origin of a call. Every other header of
 * runtime/src includes it; it includes none of them.
 *
 * Nothing declared in the runtime's headers may allocate through the
 * user-visible malloc; every function is safe to call from inside an
 * allocation entry point.
 */
#ifndef MDEBUG_INTERNAL_BASE_H
#define MDEBUG_INTERNAL_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mdebug/site.h"

/* Every runtime function goes into one of two sections, so the unwinder can
 * tell the runtime's frames from the program's by address (unwind.c), the
 * mmap and pthread_create wrappers the runtime's own calls (mmap.c,
 * threads.c) and a copy its own functions (copies.c): all ask
 * md_runtime_code below. mdebug_text holds what an ordinary run executes;
 * mdebug_cold what runs only on errors, reports and dumps, or with options
 * that are off by default. The kernel maps a file's cached pages 64 KiB at a
 * time around each fault, so a cold function next to a hot one would be
 * resident (peak RSS) in every program: kept apart, the cold section's pages
 * are never touched in a clean run. A whole file of cold code says
 * `#pragma clang section text = "mdebug_cold"` after its includes (the
 * headers' inline functions stay in mdebug_text); a cold function of a
 * mixed file says MD_COLD. Both names must stay C identifiers: the linker
 * defines __start_/__stop_ symbols only for those. */
#pragma clang section text = "mdebug_text"

#define MD_COLD __attribute__((cold, noinline, section("mdebug_cold")))
/* A function that runs on every call, but only under an option that is off
 * by default (backtrace, sampling, record_allocs): out of the hot pages,
 * but compiled as hot code (no cold attribute, which optimizes for size
 * and makes its callers' branches to it unlikely). */
#define MD_OFF_BY_DEFAULT __attribute__((section("mdebug_cold")))
/* A function of a cold file that every run executes (report.c's summary). */
#define MD_HOT_IN_COLD_FILE __attribute__((section("mdebug_text")))

extern char __start_mdebug_text[] __attribute__((weak, visibility("hidden")));
extern char __stop_mdebug_text[] __attribute__((weak, visibility("hidden")));
extern char __start_mdebug_cold[] __attribute__((weak, visibility("hidden")));
extern char __stop_mdebug_cold[] __attribute__((weak, visibility("hidden")));

/* Whether pc lies in this copy's code (either section; a section no object
 * of this module has is empty: its weak symbols are 0). Other copies' code
 * is unwind.c's and copies.c's business. */
static inline bool md_runtime_code(uintptr_t pc) {
  return pc - (uintptr_t)__start_mdebug_text <
             (uintptr_t)__stop_mdebug_text - (uintptr_t)__start_mdebug_text ||
         pc - (uintptr_t)__start_mdebug_cold <
             (uintptr_t)__stop_mdebug_cold - (uintptr_t)__start_mdebug_cold;
}

#define MD_HIDDEN __attribute__((visibility("hidden")))
#define MD_EXPORT __attribute__((visibility("default")))
#define MD_LIKELY(x) __builtin_expect(!!(x), 1)
#define MD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MD_NOINLINE __attribute__((noinline))
#define MD_ALWAYS_INLINE inline __attribute__((always_inline))

#define MD_SIZE_ALL ((size_t)-1)
#define MD_MIN_ALIGN 16 /* glibc's MALLOC_ALIGNMENT on LP64 */

/* The call kinds, one per entry point, in abi.def order (the pass numbers
 * site->op the same way). */
enum md_op {
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS) MD_OP_##NAME,
#include "mdebug/abi.def"
  MD_OP_COUNT
};

/* Allocation families: a block must be released by its own family. */
enum md_family {
  MD_FAMILY_MALLOC = 1, /* malloc, calloc, realloc, memalign, strdup, ... */
  MD_FAMILY_NEW = 2,    /* operator new */
  MD_FAMILY_NEW_ARRAY = 3, /* operator new[] */
  MD_FAMILY_MAP = 4,       /* mmap, mremap: mappings, never heap blocks */
  MD_FAMILY_THREAD = 5,    /* pthread_create: thread stacks */
  MD_FAMILY_NEW_ALIGNED = 6,       /* operator new(size_t, align_val_t) */
  MD_FAMILY_NEW_ARRAY_ALIGNED = 7, /* operator new[](size_t, align_val_t) */
};

/* The family of the blocks call kind `op` allocates, or may release
 * (ops.def). A switch, so that a constant op folds to a constant. */
static inline enum md_family md_op_family(unsigned op) {
  switch (op) {
#define MD_OP(NAME, DISPLAY, FAMILY, RELEASE, RECORD)                          \
  case MD_OP_##NAME:                                                           \
    return MD_FAMILY_##FAMILY;
#include "ops.def"
  }
  return MD_FAMILY_MALLOC;
}

/* The array families (new[], aligned new[]): their blocks may start with
 * an array cookie. */
static inline bool md_family_is_array(enum md_family f) {
  return f == MD_FAMILY_NEW_ARRAY || f == MD_FAMILY_NEW_ARRAY_ALIGNED;
}

/* What record_allocs writes a call as (record.c); ops.def's RECORD column
 * names one for each call kind that records itself. */
enum md_record_type {
  MD_REC_MALLOC, MD_REC_CALLOC, MD_REC_MEMALIGN, MD_REC_REALLOC, MD_REC_FREE,
  MD_REC_THREAD_DONE
};

/* An entry point's parameters followed by the site (abi.def's prototypes). */
#define MD_WITH_SITE(...) (__VA_ARGS__, const struct mdebug_site *site)

/* Where a call came from: a site descriptor (instrumented code) or a return
 * address (code that was not instrumented), told apart by the top bit, which
 * no user-space address on LP64 Linux has. An inert copy of the runtime
 * passes a call of a standard symbol on to the active copy's __mdebug_*
 * entry point with md_origin_pc(caller) as the site (copies.c). */
typedef uintptr_t md_origin_t;
#define MD_ORIGIN_PC_BIT ((uintptr_t)1 << 63)
static inline md_origin_t md_origin_site(const struct mdebug_site *site) {
  return (md_origin_t)site;
}
static inline md_origin_t md_origin_pc(const void *pc) {
  return (md_origin_t)pc | MD_ORIGIN_PC_BIT;
}
static inline bool md_origin_is_pc(md_origin_t o) {
  return (o & MD_ORIGIN_PC_BIT) != 0;
}

#endif
