/* thread_stacks.h - thread stacks (pthread_create), tracked as mappings are
 * (threads.c). What the rest of the runtime may call; nothing declared here
 * allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_THREAD_STACKS_H
#define MDEBUG_INTERNAL_THREAD_STACKS_H

#include "base.h"
#include "scan_contract.h"

struct md_thread_stack {
  uintptr_t lo, hi; /* the block glibc mapped: guard, stack, TLS */
  size_t guard;
  md_origin_t origin; /* the pthread_create */
  uint32_t stack;     /* its stack (depot id), 0 if none */
  bool exited;        /* exited, not joined yet */
};
size_t md_threads_collect(struct md_thread_stack *out, size_t cap) MD_HIDDEN;
/* Only while the world is stopped: the arguments of threads created but
 * not yet running (they live only in the runtime's records). */
void md_threads_roots(void (*visit)(const struct md_region *r, void *arg),
                      void *arg) MD_HIDDEN;
void md_threads_atfork_prepare(void) MD_HIDDEN;
void md_threads_atfork_parent(void) MD_HIDDEN;
void md_threads_atfork_child(void) MD_HIDDEN;

#endif
