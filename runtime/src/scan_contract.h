/* scan_contract.h - what the leak scan (scan.c) may ask of the heap, and
 * what the leak check (leak.c) may ask of the scan; nothing more.
 *
 * In the style of LeakSanitizer's lsan_common.h, which names the few
 * functions an allocator gives its scan (LockAllocator/UnlockAllocator,
 * ForEachChunk, PointsIntoChunk, GetUserBegin, LsanMetadata): scan.c
 * includes this header alone, knows no heap geometry, class table, block
 * metadata or mapping record, and can be built over any heap that gives
 * these functions - the runtime's (scan_heap.c) or a test's synthetic one
 * (test/unit/scan_test.c).
 *
 * The heap's nodes, of three kinds:
 *  - heap blocks: slots in numbered pools (1..md_scan_pools()), each pool
 *    an array of slots whose live ones are blocks; a word is found in them
 *    by arithmetic (md_scan_slot_of), and all of them lie in one range
 *    (md_scan_pools_range) so that most words are turned away inline;
 *  - large blocks: listed once (md_scan_large_each), found by the scan's own
 *    binary search;
 *  - mappings: the program's (mmap.c), listed once (md_scan_maps_collect);
 *    the pieces one mmap became share a group and are one allocation.
 * Thread data (stacks, registers, TLS, the arguments of threads not yet
 * running) are not nodes: they are roots, which the leak check walks
 * (roots_linux.c) and gives the scan as regions (md_scan_region), as it
 * does the modules' data.
 *
 * Marks (reachable, indirect) are the scan's: a byte a node, in its own
 * memory. The heap keeps one mark of its own, "reported", set through
 * md_scan_mark_reported so that a leak is reported once.
 *
 * Order: md_scan_heap_lock before the world stops (no stopped thread can
 * hold the heap's tables' locks then), everything else only while it is
 * stopped, md_scan_heap_unlock after it resumes - but the three "outside a
 * scan" functions below, which the leak check (leak.c) calls with the
 * threads running, for leak_track and mdebug_ignore(). Through them and
 * the scan's side, leak.c reaches the heap and the mappings' records only
 * here (runtime/src/layers.txt confines it to this header).
 */
#ifndef MDEBUG_SCAN_CONTRACT_H
#define MDEBUG_SCAN_CONTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MD_SCAN_HIDDEN __attribute__((visibility("hidden")))

/* ---- the heap's side (scan_heap.c in the runtime) ------------------------ */

enum md_scan_node_kind {
  MD_SCAN_NODE_SLOT,    /* a heap block */
  MD_SCAN_NODE_LARGE,   /* a large block */
  MD_SCAN_NODE_MAPPING, /* a mapping */
};
enum md_scan_node_flag {
  MD_SCAN_IGNORED = 1,   /* mdebug_ignore(): a root, never a leak */
  MD_SCAN_EXCUSED = 2,   /* reported before, or a forked child's inherited
                            node: never reported (again) */
  MD_SCAN_ARRAY_NEW = 4, /* a large block from operator new[] (for the
                            cookie; slots': md_scan_slot_of) */
  MD_SCAN_UNREAD = 8,    /* a mapping whose bytes are not read (not
                            readable, or not anonymous) */
};
struct md_scan_node {
  uintptr_t begin, end; /* the bytes a pointer may point into */
  size_t size;          /* requested (what a report says) */
  const void *handle, *extra; /* the heap's own records of it */
  uint32_t group;       /* mappings: the same for every piece of one mmap */
  uint8_t kind;         /* enum md_scan_node_kind */
  uint8_t flags;        /* enum md_scan_node_flag */
};

/* LockAllocator / UnlockAllocator: the heap's tables stay still. */
void md_scan_heap_lock(void) MD_SCAN_HIDDEN;
void md_scan_heap_unlock(void) MD_SCAN_HIDDEN;

/* Heap blocks. Pools are numbered 1..md_scan_pools() (at most
 * MD_SCAN_POOLS_MAX); pool p has md_scan_pool_slots(p) slots that may hold
 * a block now (the scan keeps a mark for each). */
#define MD_SCAN_POOLS_MAX 127
unsigned md_scan_pools(void) MD_SCAN_HIDDEN;
uint32_t md_scan_pool_slots(unsigned pool) MD_SCAN_HIDDEN;
/* How many of pool's slots hold a live block. */
uint32_t md_scan_pool_live(unsigned pool) MD_SCAN_HIDDEN;
/* Every pool's slots lie in [*lo, *lo + *size). */
void md_scan_pools_range(uintptr_t *lo, size_t *size) MD_SCAN_HIDDEN;
/* PointsIntoChunk: the live block w points into - its start, or inside its
 * bytes unless start_only, or the end of an 8-byte operator new[] block
 * holding 0 (new T[0] of a type with a destructor: the array cookie) - in
 * *pool, *slot; false if none. w is in the pools' range, and only slots
 * below md_scan_pool_slots count. */
bool md_scan_slot_of(uintptr_t w, bool start_only, unsigned *pool,
                     uint32_t *slot) MD_SCAN_HIDDEN;
/* GetUserBegin and LsanMetadata: the block in slot `slot` of pool; false
 * (n untouched) if the slot holds no live block. */
bool md_scan_slot_node(unsigned pool, uint32_t slot, struct md_scan_node *n)
    MD_SCAN_HIDDEN;

/* Large blocks: at most md_scan_large_count(); ForEachChunk over the live
 * ones. */
size_t md_scan_large_count(void) MD_SCAN_HIDDEN;
void md_scan_large_each(void (*fn)(const struct md_scan_node *n, void *arg),
                        void *arg) MD_SCAN_HIDDEN;

/* Mappings: copies up to cap into out (any order); returns how many there
 * are (out may be NULL with cap 0, to count them). */
size_t md_scan_maps_collect(struct md_scan_node *out, size_t cap)
    MD_SCAN_HIDDEN;

/* What a report says of a node, into b's origin, stack, alloc_op,
 * map_prot and map_flags. */
struct md_scan_block;
void md_scan_describe(const struct md_scan_node *n, struct md_scan_block *b)
    MD_SCAN_HIDDEN;
/* The node is leaked and is being reported: not again. */
void md_scan_mark_reported(const struct md_scan_node *n) MD_SCAN_HIDDEN;

/* The runtime's services the scan uses (platform.h, sort.h): zeroed memory of its
 * own (NULL on failure), a sort, and the parts of [begin, end) that may
 * hold data and can be read without a fault (resident or swapped out, by
 * the maps read for the stop). */
void *md_mmap(size_t size) MD_SCAN_HIDDEN;
void md_munmap(void *p, size_t size) MD_SCAN_HIDDEN;
void md_sort(void *base, size_t n, size_t size,
             bool (*before)(const void *a, const void *b)) MD_SCAN_HIDDEN;
void md_roots_each_present(uintptr_t begin, uintptr_t end,
                           void (*fn)(uintptr_t b, uintptr_t e, void *arg),
                           void *arg) MD_SCAN_HIDDEN;

/* Outside a scan, with the threads running (no stop, no md_scan_heap_lock):
 * every live heap and large block (md_scan_live_each), every mapping
 * (md_scan_live_maps_each), each given to fn as a node that
 * md_scan_describe reads inside fn (not after it returns); a block or
 * mapping changing meanwhile may be listed or not. */
void md_scan_live_each(void (*fn)(const struct md_scan_node *n, void *arg),
                       void *arg) MD_SCAN_HIDDEN;
void md_scan_live_maps_each(void (*fn)(const struct md_scan_node *n,
                                       void *arg),
                            void *arg) MD_SCAN_HIDDEN;
/* mdebug_ignore(p): marks the live block starting at p, or else the
 * program's mapping holding p, a root that is never a leak; false if
 * neither exists. */
bool md_scan_ignore(const void *p) MD_SCAN_HIDDEN;

/* ---- the scan's side (scan.c), for the leak check ------------------------ */

enum md_scan_kind { MD_SCAN_DIRECT, MD_SCAN_INDIRECT, MD_SCAN_REACHABLE };
/* A block as the leak report needs it, copied while the world is stopped. */
struct md_scan_block {
  uintptr_t user;
  size_t size;
  uintptr_t origin; /* md_origin_t */
  uint32_t stack;   /* allocation stack id, 0 if none */
  uint8_t alloc_op; /* enum md_op */
  uint8_t kind;     /* enum md_scan_kind */
  uint8_t map_prot, map_flags; /* a mapping's (alloc_op mmap, mremap) */
};
struct md_scan_result {
  struct md_scan_block *blocks; /* leaked (and reachable, if asked) blocks */
  size_t count, capacity, bytes;
  size_t reachable_blocks, reachable_bytes;
  size_t reachable_maps, reachable_map_bytes; /* mappings (mmap.c) */
};
struct md_scan;
/* All of these only inside md_world_stop's fn, with the heap locked
 * (md_scan_heap_lock). begin returns NULL without memory. */
struct md_scan *md_scan_begin(bool start_only) MD_SCAN_HIDDEN;
/* Blocks and mappings passed to mdebug_ignore() are roots. */
void md_scan_ignored_roots(struct md_scan *s) MD_SCAN_HIDDEN;
/* A root region as its finders hand it to the scan's caller: the module
 * data, stacks, registers and TLS the stop reads (roots_linux.c), the
 * thread stacks the program made (threads.c). */
struct md_region {
  uintptr_t begin, end; /* [begin, end), 8-aligned begin not required */
  const char *kind; /* "module", "loader" (ld.so's own data), "stack",
                       "registers", "tls", "descriptor", "registered" */
  int tid;          /* the thread, for stack/registers/tls; 0 otherwise */
};

/* Marks what a root region reaches, transitively. A region of the loader's
 * own data (`loader`) does not reach a mapping through a word that is the
 * mapping's first byte: the loader keeps such words stale (dl-cache.c's
 * `cache` and `cache_new` still point where /etc/ld.so.cache was mapped
 * after it is unmapped at start-up, where the program's first small mmap
 * often lands), and it holds no pointer to the start of a mapping the
 * program made (a word inside one still counts: it links the descriptors
 * of threads on stacks the program mapped). */
void md_scan_region(struct md_scan *s, uintptr_t begin, uintptr_t end,
                    bool loader) MD_SCAN_HIDDEN;
/* Classifies the unreached nodes, copies them (with the reachable ones if
 * asked) into r and marks the leaked ones reported; false without memory. */
bool md_scan_finish(struct md_scan *s, bool with_reachable,
                    struct md_scan_result *r) MD_SCAN_HIDDEN;
size_t md_scan_live(const struct md_scan *s) MD_SCAN_HIDDEN;
void md_scan_end(struct md_scan *s) MD_SCAN_HIDDEN;
void md_scan_result_free(struct md_scan_result *r) MD_SCAN_HIDDEN;

#endif
