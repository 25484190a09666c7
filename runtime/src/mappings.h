/* mappings.h - the program's mappings (mmap, munmap, mremap): their table and
 * leaks (mmap.c). What the rest of the runtime may call; nothing declared here
 * allocates through malloc.
 */
#ifndef MDEBUG_INTERNAL_MAPPINGS_H
#define MDEBUG_INTERNAL_MAPPINGS_H

#include "base.h"

/* A mapping's flags, and its marks (as a block's: kept on purpose, or
 * already reported as leaked). */
enum { MD_MAP_SHARED = 1, MD_MAP_ANON = 2, MD_MAP_FIXED = 4,
       MD_MAP_GUESSED = 8 /* grown by mremap from an untracked mapping */ };
enum { MD_MAP_MARK_IGNORED = 1, MD_MAP_MARK_REPORTED = 2 };
struct md_mapping {
  uintptr_t begin, end; /* page aligned */
  md_origin_t origin;
  uint32_t stack; /* depot id, 0 if none */
  uint32_t group; /* the same for every piece one mmap became */
  uint16_t prot;  /* PROT_* */
  uint8_t flags, op, epoch, marks;
  const void *rec; /* the table's record (for md_mmap_scan_mark) */
};
/* Memory for the runtime's tables of mappings and threads: zeroed, from a
 * reservation of their own (never a hole the program may unmap later);
 * NULL without. */
void *md_tables_alloc(size_t bytes) MD_HIDDEN;
void md_tables_free(void *p, size_t bytes) MD_HIDDEN;
/* track_mmap (decided once, at the first call). */
bool md_mmap_tracking(void) MD_HIDDEN;
/* Copies up to cap mappings into out; returns how many there are. */
size_t md_mmap_collect(struct md_mapping *out, size_t cap) MD_HIDDEN;
/* mdebug_ignore() of an address in a mapping; false if none holds it. */
bool md_mmap_ignore(const void *p) MD_HIDDEN;
size_t md_mmap_dropped(void) MD_HIDDEN; /* records lost for want of memory */
/* Bytes of the heap's reservation the heap has made accessible. */
size_t md_mmap_heap_committed(void) MD_HIDDEN;
/* The leak scan: lock before the world stops, unlock after it resumes;
 * in between, collect (sorted by address) and mark without locking. */
void md_mmap_scan_lock(void) MD_HIDDEN;
void md_mmap_scan_unlock(void) MD_HIDDEN;
size_t md_mmap_scan_collect(struct md_mapping *out, size_t cap) MD_HIDDEN;
void md_mmap_scan_mark(const struct md_mapping *m, uint8_t mark) MD_HIDDEN;
void md_mmap_atfork_prepare(void) MD_HIDDEN;
void md_mmap_atfork_parent(void) MD_HIDDEN;
void md_mmap_atfork_child(void) MD_HIDDEN;
/* "rw- private anonymous" */
size_t md_mapping_describe(char *buf, size_t size, uint16_t prot,
                           uint8_t flags) MD_HIDDEN;

#endif
