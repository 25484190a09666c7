/* access.h - checked heap accesses (-fmdebug-check-access): the lookup and its
 * reports (access.c). What the rest of the runtime may call; nothing declared
 * here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_ACCESS_H
#define MDEBUG_INTERNAL_ACCESS_H

#include "base.h"

struct mdebug_access_entry;

/* After md_heap_init: publishes the heap's geometry to instrumented code
 * (__mdebug_access), which checks nothing until then. */
void md_access_init(void) MD_HIDDEN;
/* First of all (init.c's constructor and md_init_slow, instrumented
 * modules' constructors): the empty cache's first entry. */
void md_access_prepare(void) MD_HIDDEN;
void md_access_atfork_child(void) MD_HIDDEN;
/* Set once a thread took a cache of lookups (checked accesses run). */
extern bool md_access_used MD_HIDDEN;
struct md_block;
/* A new block's answer into this thread's cache (access.c). */
void md_access_keep_new(const struct md_block *b) MD_HIDDEN;
/* The checks behind the checked C library calls (libc_checks.c). `via`
 * names the function in reports: a line's position among checks.def's
 * MDEBUG_CHECKED, MDEBUG_CHECKED_VA and MDEBUG_VIA lines, plus one. */
enum {
  MD_VIA_NONE,
#define MD_VIA_ENUM(NAME, ...) MD_VIA_##NAME,
#define MDEBUG_CHECKED MD_VIA_ENUM
#define MDEBUG_CHECKED_VA MD_VIA_ENUM
#define MDEBUG_VIA MD_VIA_ENUM
#include "mdebug/checks.def"
#undef MD_VIA_ENUM
  MD_VIA_COUNT
};
struct mdebug_access_site;
#include "mdebug/access.h"
/* The last live block the checked calls of a thread without a cache of
 * lookups found (access.c: fine_uncached), its bounds complemented (the
 * leak scan reads thread-local storage), and whether it holds a. */
extern __thread struct mdebug_access_entry md_calls_memo
    __attribute__((tls_model("initial-exec"))) MD_HIDDEN;
static inline bool md_calls_memo_holds(uintptr_t a) {
  const struct mdebug_access_entry *e = &md_calls_memo;
  return e->word && ~e->start <= a && a <= ~e->end &&
         __atomic_load_n(e->word, __ATOMIC_ACQUIRE) == e->value;
}
/* [addr, addr + n) against the block it lies in; reports what lies
 * outside (info: MDEBUG_ACCESS_INFO). false when it does not lie inside
 * (reported now, or before at the same site). */
bool md_access_check(const void *addr, size_t n, uint64_t info,
                     const struct mdebug_access_site *site) MD_HIDDEN;
/* strnlen(s, max), reporting a string that runs off its block. */
size_t md_access_string_length(const char *s, size_t max, unsigned via,
                               const struct mdebug_access_site *site) MD_HIDDEN;

#endif
