// Proves: the leak scan (scan.c) needs of the heap only what
// scan_contract.h states, and classifies a synthetic heap this test
// implements behind that contract (no mdebug heap, no runtime linked):
// a chain of blocks reached from a root through a cycle is reachable; an
// interior pointer keeps its block (not with start_only); the end of an
// 8-byte new[] block holding 0 (the array cookie) keeps it, of any other
// block does not; a pointer to a free slot keeps nothing; an unreachable
// cycle is two indirect leaks (as LeakSanitizer says of one); a direct leak's
// chain is indirect down to a block reachable only through it; an ignored
// block is a root, reachable; an excused one (reported before,
// or inherited) is not reported; a large block reached by an interior
// pointer is read, a leaked one is direct and what it points to indirect;
// one piece of an mmap reached keeps its other pieces and what they point
// to; a leaked mapping is direct and what it points to indirect, unless the
// mapping is not read; a loader root's word at a mapping's first byte
// keeps nothing, its word at a block keeps the block; leaked nodes are marked reported, so a second scan
// reports nothing; the counts of reachable blocks and mappings are right.
// RUN: %clang -O1 -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared %s %mdebug_src/runtime/src/scan.c -o %t
// RUN: %t 2>&1 | %FileCheck %s
// CHECK-NOT: FAIL
// CHECK: scan_test: {{[0-9]+}} passed, 0 failed
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "scan_contract.h"

static int passed, failed;
#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (cond) {                                                                \
      passed++;                                                                \
    } else {                                                                   \
      failed++;                                                                \
      printf("FAIL line %d: ", __LINE__);                                      \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
    }                                                                          \
  } while (0)

/* ---- the synthetic heap -------------------------------------------------- */

/* Two pools of slots in one range: pool 1 of 16 slots of 32 bytes, pool 2
 * of 8 slots of 64 bytes. */
#define SLOTS1 16
#define SLOTS2 8
struct slot_info {
  size_t size; /* requested bytes; usable too */
  uint8_t live, flags, reported;
};
static struct {
  _Alignas(64) uintptr_t pool1[SLOTS1][4];
  uintptr_t pool2[SLOTS2][8];
} heap;
static struct slot_info info1[SLOTS1], info2[SLOTS2];

static uintptr_t *slot(unsigned pool, uint32_t i) {
  return pool == 1 ? heap.pool1[i] : heap.pool2[i];
}
static struct slot_info *slot_info(unsigned pool, uint32_t i) {
  return pool == 1 ? &info1[i] : &info2[i];
}

/* Large blocks and mappings: buffers of their own, outside the pools. */
struct other {
  uintptr_t *words;
  size_t size;
  uint32_t group;
  uint8_t kind, flags, reported;
};
static _Alignas(64) uintptr_t large0[64], large1[64];
static _Alignas(64) uintptr_t map0a[32], map0b[32], map1[32], map2[32];
static struct other larges[] = {
    {large0, sizeof(large0), 0, MD_SCAN_NODE_LARGE, 0, 0},
    {large1, sizeof(large1), 0, MD_SCAN_NODE_LARGE, 0, 0},
};
static struct other maps[] = {
    {map0a, sizeof(map0a), 7, MD_SCAN_NODE_MAPPING, 0, 0},
    {map0b, sizeof(map0b), 7, MD_SCAN_NODE_MAPPING, 0, 0},
    {map1, sizeof(map1), 8, MD_SCAN_NODE_MAPPING, 0, 0},
    {map2, sizeof(map2), 9, MD_SCAN_NODE_MAPPING, MD_SCAN_UNREAD, 0},
};
static int locked;

void md_scan_heap_lock(void) { locked++; }
void md_scan_heap_unlock(void) { locked--; }
unsigned md_scan_pools(void) { return 2; }
uint32_t md_scan_pool_slots(unsigned pool) {
  return pool == 1 ? SLOTS1 : SLOTS2;
}
uint32_t md_scan_pool_live(unsigned pool) {
  uint32_t live = 0;
  for (uint32_t i = 0; i < md_scan_pool_slots(pool); i++)
    live += slot_info(pool, i)->live;
  return live;
}
void md_scan_pools_range(uintptr_t *lo, size_t *size) {
  *lo = (uintptr_t)&heap;
  *size = sizeof(heap);
}
bool md_scan_slot_of(uintptr_t w, bool start_only, unsigned *pool,
                     uint32_t *i) {
  uintptr_t p1 = (uintptr_t)heap.pool1, p2 = (uintptr_t)heap.pool2;
  unsigned k;
  uint32_t n;
  size_t off;
  if (w - p1 < sizeof(heap.pool1)) {
    k = 1;
    n = (uint32_t)((w - p1) / sizeof(heap.pool1[0]));
    off = (w - p1) % sizeof(heap.pool1[0]);
  } else if (w - p2 < sizeof(heap.pool2)) {
    k = 2;
    n = (uint32_t)((w - p2) / sizeof(heap.pool2[0]));
    off = (w - p2) % sizeof(heap.pool2[0]);
  } else {
    CHECK(0, "slot_of asked of %#lx, outside the pools", (unsigned long)w);
    return false;
  }
  const struct slot_info *s = slot_info(k, n);
  if (!s->live)
    return false;
  if (off != 0 && (start_only || off >= s->size) &&
      !(s->size == 8 && off == 8 && (s->flags & MD_SCAN_ARRAY_NEW) &&
        *slot(k, n) == 0))
    return false;
  *pool = k;
  *i = n;
  return true;
}
bool md_scan_slot_node(unsigned pool, uint32_t i, struct md_scan_node *n) {
  const struct slot_info *s = slot_info(pool, i);
  if (!s->live)
    return false;
  uintptr_t b = (uintptr_t)slot(pool, i);
  *n = (struct md_scan_node){
      b,    b + s->size,       s->size, s, NULL, 0, MD_SCAN_NODE_SLOT,
      (uint8_t)(s->flags | (s->reported ? MD_SCAN_EXCUSED : 0))};
  return true;
}
static struct md_scan_node node_of(struct other *o) {
  return (struct md_scan_node){(uintptr_t)o->words,
                               (uintptr_t)o->words + o->size,
                               o->size,
                               o,
                               NULL,
                               o->group,
                               o->kind,
                               (uint8_t)(o->flags |
                                         (o->reported ? MD_SCAN_EXCUSED : 0))};
}
size_t md_scan_large_count(void) { return 2; }
void md_scan_large_each(void (*fn)(const struct md_scan_node *n, void *arg),
                        void *arg) {
  for (size_t i = 0; i < 2; i++) {
    struct md_scan_node n = node_of(&larges[i]);
    fn(&n, arg);
  }
}
size_t md_scan_maps_collect(struct md_scan_node *out, size_t cap) {
  size_t n = sizeof(maps) / sizeof(maps[0]);
  for (size_t i = 0; i < n && i < cap; i++)
    out[i] = node_of(&maps[n - 1 - i]); /* any order */
  return n;
}
void md_scan_describe(const struct md_scan_node *n, struct md_scan_block *b) {
  b->stack = 42;
  b->alloc_op = n->kind;
}
void md_scan_mark_reported(const struct md_scan_node *n) {
  if (n->kind == MD_SCAN_NODE_SLOT)
    ((struct slot_info *)n->handle)->reported = 1;
  else
    ((struct other *)n->handle)->reported = 1;
}

/* The runtime's services. */
void *md_mmap(size_t size) {
  void *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}
void md_munmap(void *p, size_t size) {
  if (p)
    munmap(p, size ? size : 1);
}
void md_sort(void *base, size_t n, size_t size,
             bool (*before)(const void *a, const void *b)) {
  char *v = base, tmp[256];
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && before(v + j * size, v + (j - 1) * size);
         j--) {
      memcpy(tmp, v + j * size, size);
      memcpy(v + j * size, v + (j - 1) * size, size);
      memcpy(v + (j - 1) * size, tmp, size);
    }
}
void md_roots_each_present(uintptr_t begin, uintptr_t end,
                           void (*fn)(uintptr_t b, uintptr_t e, void *arg),
                           void *arg) {
  fn(begin, end, arg);
}

/* ---- the test ------------------------------------------------------------ */

static void block(unsigned pool, uint32_t i, size_t size, uint8_t flags) {
  *slot_info(pool, i) = (struct slot_info){size, 1, flags, 0};
}
#define P(pool, i) ((uintptr_t)slot(pool, i))

static uintptr_t roots[8];
static uintptr_t loader_roots[2]; /* scanned as the loader's data */

/* The kind the result gives the node at user, or -1 if it is not listed. */
static int kind_of(const struct md_scan_result *r, uintptr_t user) {
  int kind = -1;
  for (size_t i = 0; i < r->count; i++)
    if (r->blocks[i].user == user) {
      CHECK(kind == -1, "%#lx listed twice", (unsigned long)user);
      kind = r->blocks[i].kind;
    }
  return kind;
}

static bool scan(bool start_only, struct md_scan_result *r) {
  md_scan_heap_lock();
  struct md_scan *s = md_scan_begin(start_only);
  CHECK(s != NULL, "md_scan_begin");
  if (!s)
    return false;
  /* live: 22 blocks, 2 large blocks and 4 mappings */
  CHECK(md_scan_live(s) == 28, "live %zu", md_scan_live(s));
  md_scan_ignored_roots(s);
  md_scan_region(s, (uintptr_t)roots, (uintptr_t)(roots + 8), false);
  md_scan_region(s, (uintptr_t)loader_roots, (uintptr_t)(loader_roots + 2),
                 true);
  bool ok = md_scan_finish(s, true, r);
  CHECK(ok, "md_scan_finish");
  md_scan_end(s);
  md_scan_heap_unlock();
  return ok;
}

enum { R = MD_SCAN_REACHABLE, D = MD_SCAN_DIRECT, I = MD_SCAN_INDIRECT };

static void expect(const struct md_scan_result *r, const char *what,
                   uintptr_t user, int kind) {
  int got = kind_of(r, user);
  CHECK(got == kind, "%s: kind %d, expected %d", what, got, kind);
}

int main(void) {
  /* reachable: root -> 1.0 -> 1.2 -> 1.3 -> 1.0 (a cycle); an interior
   * pointer to 1.1 */
  for (uint32_t i = 0; i < 14; i++)
    block(1, i, 32, 0);
  heap.pool1[0][1] = P(1, 2);
  heap.pool1[2][3] = P(1, 3);
  heap.pool1[3][0] = P(1, 0);
  roots[0] = P(1, 0);
  roots[1] = P(1, 1) + 8;
  /* an unreachable cycle: 1.4 <-> 1.5 */
  heap.pool1[4][0] = P(1, 5);
  heap.pool1[5][2] = P(1, 4);
  /* a direct leak and its chain: 1.6 -> 1.7 -> 2.0 */
  heap.pool1[6][0] = P(1, 7);
  heap.pool1[7][0] = P(2, 0) + 16;
  block(2, 0, 64, 0);
  /* ignored 1.8 -> 1.9; excused 1.10 */
  info1[8].flags = MD_SCAN_IGNORED;
  heap.pool1[8][0] = P(1, 9);
  info1[10].flags = MD_SCAN_EXCUSED;
  /* a pointer to free slot 1.14 keeps nothing; 1.14 is no node */
  roots[2] = P(1, 14);
  /* new T[0]: 2.1 of 8 bytes holding 0, kept by its end; 2.5 the same but
   * not from new[]: its end keeps nothing */
  block(2, 1, 8, MD_SCAN_ARRAY_NEW);
  block(2, 5, 8, 0);
  roots[3] = P(2, 1) + 8;
  roots[4] = P(2, 5) + 8;
  /* large: large0 reached inside, -> 1.12; large1 leaked -> 1.13 */
  roots[5] = (uintptr_t)&large0[10];
  large0[20] = P(1, 12);
  large1[3] = P(1, 13) + 4;
  /* mappings: map0b reached, its piece map0a -> 2.2; map1 leaked -> 2.3;
   * map2 leaked and not read -> 2.4 (direct) */
  roots[6] = (uintptr_t)&map0b[5];
  map0a[1] = P(2, 2);
  map1[0] = P(2, 3);
  map2[0] = P(2, 4);
  block(2, 2, 64, 0);
  block(2, 3, 64, 0);
  block(2, 4, 64, 0);
  block(2, 6, 64, 0); /* nothing points to it: direct */
  /* the loader's data: map1's first byte (keeps nothing), and 2.7 */
  loader_roots[0] = (uintptr_t)map1;
  loader_roots[1] = P(2, 7);
  block(2, 7, 64, 0);

  struct md_scan_result r;
  if (scan(false, &r)) {
    expect(&r, "root", P(1, 0), R);
    expect(&r, "interior", P(1, 1), R);
    expect(&r, "chain", P(1, 2), R);
    expect(&r, "cycle back", P(1, 3), R);
    expect(&r, "leaked cycle a", P(1, 4), I);
    expect(&r, "leaked cycle b", P(1, 5), I);
    expect(&r, "direct", P(1, 6), D);
    expect(&r, "indirect", P(1, 7), I);
    expect(&r, "only via indirect", P(2, 0), I);
    expect(&r, "ignored: a root", P(1, 8), R);
    expect(&r, "from ignored", P(1, 9), R);
    expect(&r, "excused", P(1, 10), -1);
    expect(&r, "leak", P(1, 11), D);
    expect(&r, "free slot", P(1, 14), -1);
    expect(&r, "array cookie end", P(2, 1), R);
    expect(&r, "end of non-new[]", P(2, 5), D);
    expect(&r, "large reached", (uintptr_t)large0, R);
    expect(&r, "from large", P(1, 12), R);
    expect(&r, "large leaked", (uintptr_t)large1, D);
    expect(&r, "from leaked large", P(1, 13), I);
    expect(&r, "piece reached", (uintptr_t)map0b, R);
    expect(&r, "other piece", (uintptr_t)map0a, R);
    expect(&r, "from other piece", P(2, 2), R);
    expect(&r, "map leaked", (uintptr_t)map1, D);
    expect(&r, "from leaked map", P(2, 3), I);
    expect(&r, "unread map", (uintptr_t)map2, D);
    expect(&r, "from unread map", P(2, 4), D);
    expect(&r, "unreferenced", P(2, 6), D);
    expect(&r, "from the loader's data", P(2, 7), R);
    CHECK(r.reachable_blocks == 11, "reachable blocks %zu",
          r.reachable_blocks);
    CHECK(r.reachable_maps == 2, "reachable maps %zu", r.reachable_maps);
    CHECK(r.reachable_map_bytes == sizeof(map0a) + sizeof(map0b),
          "reachable map bytes %zu", r.reachable_map_bytes);
    CHECK(r.count == 11 + 2 + 14, "listed %zu", r.count);
    for (size_t i = 0; i < r.count; i++)
      CHECK(r.blocks[i].stack == 42, "described");
    CHECK(info1[6].reported && !info1[0].reported && maps[2].reported &&
              larges[1].reported && !larges[0].reported,
          "leaks marked reported, the rest not");
    md_scan_result_free(&r);
  }
  /* everything reported already: a second scan lists only the reachable */
  if (scan(false, &r)) {
    size_t leaks = 0;
    for (size_t i = 0; i < r.count; i++)
      leaks += r.blocks[i].kind != R;
    CHECK(leaks == 0, "%zu leaks reported again", leaks);
    md_scan_result_free(&r);
  }
  /* start_only: interior pointers keep nothing */
  memset(info1, 0, sizeof(info1[0]) * 2);
  block(1, 0, 32, 0);
  block(1, 1, 32, 0);
  larges[0].reported = 0;
  if (scan(true, &r)) {
    expect(&r, "start pointer", P(1, 0), R);
    expect(&r, "interior, start_only", P(1, 1), D);
    expect(&r, "large inside, start_only", (uintptr_t)large0, D);
    md_scan_result_free(&r);
  }
  CHECK(locked == 0, "lock balanced");
  printf("scan_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
