/* copies.h - one active runtime per process (copies.c). What the rest of the
 * runtime may call; nothing declared here allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_COPIES_H
#define MDEBUG_INTERNAL_COPIES_H

#include "base.h"

/* This copy of the runtime is the process's (the one the dynamic linker
 * binds malloc to) or inert; decided at its first call or constructor. */
enum { MD_COPY_UNDECIDED, MD_COPY_ACTIVE, MD_COPY_INERT };
extern int md_copy_role MD_HIDDEN;
bool md_copy_decide(void) MD_HIDDEN; /* true: this copy is active */
static inline bool md_copy_active(void) {
  return MD_LIKELY(__atomic_load_n(&md_copy_role, __ATOMIC_ACQUIRE) ==
                   MD_COPY_ACTIVE) ||
         md_copy_decide();
}
/* Where an inert copy passes each call on (set before it is seen inert):
 * site_NAME, the active copy's __mdebug_NAME, or NULL when no copy in the
 * process exports it; plain_NAME, the process's SYMBOL (libc's when no copy
 * is active), or NULL when the only one in reach is this copy's own. */
struct md_forward {
#define MDEBUG_ENTRY(NAME, SYMBOL, SIG, RET, PARAMS)                           \
  RET(*site_##NAME) MD_WITH_SITE PARAMS;                                       \
  RET(*plain_##NAME) PARAMS;
#include "mdebug/abi.def"
  void (*version_check)(void);
  size_t (*check_leaks)(void);
  int (*dump_heap)(const char *path);
  void (*ignore)(const void *ptr);
  void (*register_root)(const void *begin, size_t size);
  void (*unregister_root)(const void *begin, size_t size);
  void (*get_leak_info)(uint8_t **info, size_t *overall_size,
                        size_t *info_size, size_t *total_memory,
                        size_t *backtrace_size);
  void (*free_leak_info)(uint8_t *info);
  ssize_t (*backtrace)(void *pointer, uintptr_t *frames, size_t count);
  int (*snapshot)(const char *label);
  int (*track)(int on);
};
extern struct md_forward md_forward MD_HIDDEN;
/* An inert copy's constructor: shows the active copy where its code is (so
 * none of its frames appears in a stack), or says that no copy runs the
 * checks when none is active. */
void md_copy_announce(void) MD_HIDDEN;

#endif
