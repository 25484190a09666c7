/* origin.h - 32-bit ids for origins (block metadata keeps ids) (origin.c).
 * What the rest of the runtime may call; nothing declared here allocates
 * through malloc.
 */
#ifndef MDEBUG_INTERNAL_ORIGIN_H
#define MDEBUG_INTERNAL_ORIGIN_H

#include "base.h"

#define MD_ORIGIN_MAX ((size_t)1 << 22) /* ids are below this */
struct md_origin_slot {
  md_origin_t key; /* 0: empty */
  uint64_t id;
};
struct md_origin_index {
  size_t mask;
  struct md_origin_slot slots[];
};
extern struct md_origin_index *md_origin_index MD_HIDDEN;
void md_origin_init(void) MD_HIDDEN;
uint32_t md_origin_id_slow(md_origin_t origin) MD_HIDDEN;
static inline size_t md_origin_hash(md_origin_t o) {
  return (size_t)((o * 0x9e3779b97f4a7c15ull) >> 32);
}
/* The id of an origin (0 for 0, or when no more ids are left). A site
 * descriptor carries its own once it has one (origin_id, site.h): one load,
 * no hash; a return address is looked up in the index. */
static inline uint32_t md_origin_id(md_origin_t o) {
  if (MD_LIKELY((intptr_t)o > 0)) { /* a site: not 0, not a return address */
    uint32_t id = __atomic_load_n(
        &((const struct mdebug_site *)o)->origin_id, __ATOMIC_ACQUIRE);
    if (MD_LIKELY(id))
      return id;
    return md_origin_id_slow(o);
  }
  const struct md_origin_index *x =
      __atomic_load_n(&md_origin_index, __ATOMIC_ACQUIRE);
  const struct md_origin_slot *s = &x->slots[md_origin_hash(o) & x->mask];
  if (MD_LIKELY(__atomic_load_n(&s->key, __ATOMIC_ACQUIRE) == o && o))
    return (uint32_t)s->id;
  return md_origin_id_slow(o);
}
md_origin_t md_origin_of(uint32_t id) MD_HIDDEN; /* 0 for 0 */
size_t md_origin_count(void) MD_HIDDEN;
void md_origin_atfork_prepare(void) MD_HIDDEN;
void md_origin_atfork_parent(void) MD_HIDDEN;
void md_origin_atfork_child(void) MD_HIDDEN;

#endif
