/* chunk.h - the block layout, drawn once. Every other file reaches a block's
 * parts only through these helpers.
 *
 *   base (from __libc_malloc / __libc_memalign)
 *   |  gap (only for alignments above 16; its last 8 bytes hold its size)
 *   v  v
 *   [..][header 32][stacks 0|16][front guard FG][user: size + expand][rear guard RG]
 *                                               ^ the pointer the program sees
 *
 * The header sits at a fixed distance (md_layout.prefix = 32 + S + FG, FG
 * rounded up to 16) before the user pointer, for every block, so it is found
 * without a lookup; a flag in it says whether a gap precedes it. The stacks
 * extension (S = 16) is there only when stacks are recorded (backtrace.c):
 * depot ids of the allocation and free stacks. expand_alloc bytes are
 * usable (as in malloc debug), so the rear guard starts after them.
 * Requested sizes of 2^47 or more fail with ENOMEM (no machine maps that
 * much), which leaves the header room for the call kinds; so do alignments
 * above 16 MiB.
 */
#ifndef MDEBUG_CHUNK_H
#define MDEBUG_CHUNK_H

#include "internal.h"

/* Named bytes, as malloc debug uses them. */
#define MD_FILL_ALLOC 0xeb
#define MD_FILL_FREE 0xef
#define MD_GUARD_FRONT 0xaa
#define MD_GUARD_REAR 0xbb

/* Tags: state in the top 24 bits; the low byte holds the family (2 bits)
 * and the fork epoch the block was allocated in (6 bits, see init.c). */
#define MD_TAG_LIVE 0x1ee7d000u
#define MD_TAG_FREED 0x0ff5e000u
#define MD_TAG_STATE_MASK 0xffffff00u
#define MD_TAG_FAMILY_MASK 0x3u
#define MD_TAG_EPOCH_SHIFT 2
#define MD_EPOCH_MASK 0x3fu
#define MD_MAX_SIZE (((size_t)1 << 47) - 1)
#define MD_MAX_ALIGN ((size_t)1 << 24)

struct md_chunk {
  uint32_t tag;
  uint32_t slot;         /* its entry in the block table (track.c) */
  uint64_t size : 47;    /* requested size, without expand_alloc */
  uint64_t gapped : 1;   /* a gap lies between the base and the header */
  uint64_t alloc_op : 8; /* enum md_op of the allocating call */
  uint64_t free_op : 8;  /* enum md_op of the freeing call, once freed */
  md_origin_t alloc_origin;
  md_origin_t free_origin; /* 0 while live */
};
_Static_assert(sizeof(struct md_chunk) == 32, "header is 32 bytes");

struct md_chunk_stacks {
  uint32_t alloc_stack; /* depot ids (depot.c); 0: none recorded */
  uint32_t free_stack;
  uint64_t unused;
};
_Static_assert(sizeof(struct md_chunk_stacks) == 16, "keeps 16-byte alignment");

/* Fixed at init from the options; read-only afterwards. */
struct md_layout {
  size_t front_guard; /* rounded up to 16 */
  size_t rear_guard;
  size_t tail;   /* bytes allocated after the usable ones (see init.c) */
  size_t expand;
  size_t stacks; /* sizeof(struct md_chunk_stacks) when recorded, else 0 */
  size_t prefix; /* sizeof(header) + stacks + front_guard */
};
extern struct md_layout md_layout MD_HIDDEN;

static inline struct md_chunk *md_chunk_of(const void *user) {
  return (struct md_chunk *)((uintptr_t)user - md_layout.prefix);
}
static inline unsigned char *md_chunk_user(const struct md_chunk *c) {
  return (unsigned char *)c + md_layout.prefix;
}
static inline unsigned char *md_chunk_front_guard(const struct md_chunk *c) {
  return (unsigned char *)c + sizeof(struct md_chunk) + md_layout.stacks;
}
/* Only when md_layout.stacks is set. */
static inline struct md_chunk_stacks *md_chunk_stacks(const struct md_chunk *c) {
  return (struct md_chunk_stacks *)((unsigned char *)c + sizeof(struct md_chunk));
}
static inline uint32_t md_chunk_alloc_stack(const struct md_chunk *c) {
  return md_layout.stacks ? md_chunk_stacks(c)->alloc_stack : 0;
}
static inline uint32_t md_chunk_free_stack(const struct md_chunk *c) {
  return md_layout.stacks ? md_chunk_stacks(c)->free_stack : 0;
}
static inline size_t md_chunk_usable(const struct md_chunk *c) {
  return c->size + md_layout.expand;
}
static inline unsigned char *md_chunk_rear_guard(const struct md_chunk *c) {
  return md_chunk_user(c) + md_chunk_usable(c);
}
static inline void *md_chunk_base(const struct md_chunk *c) {
  if (MD_LIKELY(!c->gapped))
    return (void *)c;
  return (unsigned char *)c - ((const uint64_t *)c)[-1];
}
static inline enum md_family md_chunk_family(const struct md_chunk *c) {
  return (enum md_family)(c->tag & MD_TAG_FAMILY_MASK);
}
/* The process generation (fork depth, mod 64) that allocated the block. */
static inline unsigned md_chunk_epoch(const struct md_chunk *c) {
  return (c->tag >> MD_TAG_EPOCH_SHIFT) & MD_EPOCH_MASK;
}
static inline uint32_t md_tag_make(uint32_t state, enum md_family family) {
  return state | ((md_fork_epoch & MD_EPOCH_MASK) << MD_TAG_EPOCH_SHIFT) |
         family;
}
static inline bool md_chunk_is_live(const struct md_chunk *c) {
  return (c->tag & MD_TAG_STATE_MASK) == MD_TAG_LIVE;
}
static inline bool md_chunk_is_freed(const struct md_chunk *c) {
  return (c->tag & MD_TAG_STATE_MASK) == MD_TAG_FREED;
}

/* True when p[0..n) all hold `byte`: a word compare, for guard and fill
 * checks on the fast path. */
static inline bool md_bytes_all(const unsigned char *p, size_t n,
                                unsigned char byte) {
  uint64_t word = 0x0101010101010101ull * byte, w;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __builtin_memcpy(&w, p + i, 8);
    if (w != word)
      return false;
  }
  for (; i < n; i++)
    if (p[i] != byte)
      return false;
  return true;
}

#endif
