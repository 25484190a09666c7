/* access.h - what checked heap accesses share between the pass and the
 * runtime: the access site descriptor and the heap geometry instrumented
 * code reads. The pass lays both out by hand (pass/AccessSites.cpp,
 * pass/AccessCheck.cpp); any change here is an ABI change: bump
 * MDEBUG_ABI_VERSION. The entry points are listed in checks.def.
 *
 * Instrumented code reads the heap's range [base, base + size) from
 * __mdebug_access (the primary range and the large blocks' range after it;
 * an address outside it is not checked), and asks
 * __mdebug_access_lookup for the bytes of the block a pointer points into
 * (runtime/src/heap.h draws the heap; access.c does the arithmetic).
 */
#ifndef MDEBUG_ACCESS_H
#define MDEBUG_ACCESS_H

#include <stdint.h>

/* Descriptors of the instructions checked, one per source location. */
#define MDEBUG_ACCESS_SITE_SECTION "mdebug_access_sites"

/* 16 bytes, position independent: the strings are found from the
 * descriptor's own address, so descriptors need no relocation when the
 * program is loaded (a large program has tens of thousands of them). */
struct mdebug_access_site {
  int32_t file;     /* (char *)site + file: a path the user can open */
  int32_t function; /* (char *)site + function: demangled function */
  uint32_t line;    /* 0 when the compiler had no location */
  uint32_t column;  /* 0 when unknown */
};

/* __mdebug_access: all zero until the heap exists (nothing is then in
 * range), fixed afterwards. */
struct mdebug_access_geometry {
  uint64_t base;
  uint64_t size;
  uint64_t reserved[2];
};

/* What __mdebug_access_lookup(p) and __mdebug_access_miss(p) return a
 * pointer to, as the first element of a mdebug_access_answer (read it at
 * once: the runtime may reuse it at the next lookup):
 *   [start, end)  the bytes of the live block p points into (or just
 *                 past); [0, 0) when p is in the heap but in no live block
 *                 (a freed block, a guard, an unused slot); when p is not
 *                 in the heap's range (nothing to check), the side of the
 *                 address space it lies on: [0, base), [base + size,
 *                 UINT64_MAX), or [0, UINT64_MAX) before the heap exists
 *                 (__mdebug_access_fail returns at once for such a p);
 *                 start <= p always (instrumented code tests an address a
 *                 constant number of bytes past p against end only);
 *   *word == value  holds as long as that answer does: after a call that
 *                 may have freed the block, instrumented code compares the
 *                 word again rather than looking the pointer up again. */
struct mdebug_access_entry {
  uint64_t start;
  uint64_t end;
  const uint64_t *word;
  uint64_t value;
};
/* Each thread's cache of its last answers (pointers outside the heap
 * too), which instrumented code probes before it calls the lookup:
 * __mdebug_access_cache (thread-local, initial exec) points to
 * MDEBUG_ACCESS_CACHE_ENTRIES entries; the entry for p is at
 * MDEBUG_ACCESS_CACHE_INDEX(p), and answers for p when
 *   start <= p  and  p <= end  and  *word == value
 * (read word last). An entry that does not hold is left alone: only the
 * lookup writes entries; when the probe misses, instrumented code calls
 * __mdebug_access_miss, which does not probe again. An entry of zeros
 * (never written) fails the bounds for every p but 0, whose entry (index
 * 0) always holds a readable word. */
#define MDEBUG_ACCESS_CACHE_ENTRIES 2048
/* One entry per 32 bytes of address space, the size of an entry: the
 * entry's offset in the cache is p & ((ENTRIES - 1) << 5), one instruction
 * (and against one per 16 bytes, 11% fewer misses on Lua, whose objects
 * are rarely 16 bytes apart). */
#define MDEBUG_ACCESS_CACHE_SHIFT 5
#define MDEBUG_ACCESS_CACHE_INDEX(p)                                           \
  (((uint64_t)(p) >> MDEBUG_ACCESS_CACHE_SHIFT) &                              \
   (MDEBUG_ACCESS_CACHE_ENTRIES - 1))
#define MDEBUG_ACCESS_CACHE_NAME "__mdebug_access_cache"

/* A vector, so that it comes back in xmm0: the lookup keeps every general
 * register (preserve_most, checks.def), and clang 14 restores even the
 * one that carries a result (rax) when it keeps that promise. */
typedef uint64_t mdebug_access_answer __attribute__((vector_size(16)));

/* The last argument of the check entry points (checks.def): the access's
 * size in bytes (loads and stores; range checks pass it apart), whether it
 * writes, and through which library function, if any (its line in
 * checks.def, plus one). */
#define MDEBUG_ACCESS_INFO(size, write, via)                                   \
  ((uint64_t)(uint32_t)(size) | ((uint64_t)((write) ? 1 : 0) << 32) |          \
   ((uint64_t)(via) << 40))
#define MDEBUG_ACCESS_INFO_SIZE(info) ((uint32_t)(info))
#define MDEBUG_ACCESS_INFO_WRITE(info) (((info) >> 32) & 1)
#define MDEBUG_ACCESS_INFO_VIA(info) ((unsigned)((info) >> 40) & 255)

#endif
