/* lifecycle.h - the table lifecycle.c builds from lifecycle.def, for
 * lifecycle.c and its unit test (the rest of the runtime calls the two
 * functions declared at the end of this file). Never allocates. */
#ifndef MDEBUG_LIFECYCLE_H
#define MDEBUG_LIFECYCLE_H

#include "base.h"

enum { MD_LC_THREAD = 1 }; /* its start or child starts a thread */

struct md_lifecycle_row {
  const char *name;
  void (*start)(void), (*prepare)(void), (*parent)(void), (*child)(void);
  unsigned flags;
  const char *locks; /* "file.c:lock ..." */
};

enum md_lifecycle_phase { MD_LC_START, MD_LC_PREPARE, MD_LC_PARENT, MD_LC_CHILD };

extern const struct md_lifecycle_row md_lifecycle[] MD_HIDDEN;
extern const size_t md_lifecycle_count MD_HIDDEN;

/* One phase over rows[0..n): prepare top to bottom, the others bottom to
 * top. */
void md_lifecycle_run(const struct md_lifecycle_row *rows, size_t n,
                      enum md_lifecycle_phase phase) MD_HIDDEN;

/* Incremented in every forked child: blocks of an older epoch were inherited
 * from the parent and are not the child's leaks. */
extern unsigned md_fork_epoch MD_HIDDEN;
/* The one pthread_atfork, from md_init_slow once the heap is up. */
void md_lifecycle_register(void) MD_HIDDEN;
/* The start-up steps, from the active copy's constructor. */
void md_lifecycle_start(void) MD_HIDDEN;

#endif
