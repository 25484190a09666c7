// Proves: mdebug's heap (heap.h) is exact. Every size from 1 to the largest
// class maps to the smallest class that fits it; every size and alignment
// gives a block of that alignment whose every byte resolves, by arithmetic,
// to the block and its offset, while the bytes around it do not; blocks
// move through live, quarantined and freed as the metadata says; four
// threads allocating and freeing each other's blocks never get a block that
// is still live, and the heap's live count matches a model of theirs; whole
// free pages go back to the OS (mincore) and come back usable with intact
// guards. Also the stack depot (depot.c): the same stack always gets the
// same id, different stacks different ids, ids of garbage are refused; and
// the unwinder (unwind.c) names this test's own frames.
// RUN: %clang -O1 -fno-omit-frame-pointer -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared -I%mdebug_include %s %mdebug_rt_a -o %t -lpthread
// RUN: env MDEBUG_OPTIONS="verify_pointers free_track=16 guard=16" %t 2>&1 | %FileCheck %s
// CHECK-NOT: mdebug: ERROR
// CHECK: heap_test: {{[0-9]+}} passed, 0 failed
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guard.h"
#include "heap.h"
#include "stacks.h"
/* base.h puts what follows in the runtime's section, whose frames the
 * unwinder skips: this test's own code goes back to .text. */
#pragma clang section text = ""

static int passed, failed;
static void expect(int ok, const char *what, long i) {
  if (ok) {
    passed++;
  } else if (failed++ < 20) {
    printf("FAILED: %s (%ld)\n", what, i);
  }
}

/* ---- size classes ---------------------------------------------------------- */

static void size_classes(void) {
  int bad = 0;
  for (size_t n = 1; n <= MD_PRIMARY_MAX; n++) {
    unsigned k = md_size_class(n);
    if (k < 1 || k > MD_CLASS_COUNT || md_class_size(k) < n ||
        (k > 1 && md_class_size(k - 1) >= n))
      bad++;
  }
  expect(bad == 0, "every size maps to the smallest class that fits", bad);
  expect(md_class_size(MD_CLASS_COUNT) == MD_PRIMARY_MAX,
         "the largest class is 128 KiB", 0);
  for (unsigned k = 1; k <= MD_CLASS_COUNT; k++)
    expect(md_class_size(k) % 16 == 0 &&
               (k == 1 || md_class_size(k) > md_class_size(k - 1)),
           "classes grow in 16-byte units", k);
  expect(md_size_class(0) == 1, "size 0 is class 1", 0);
}

/* ---- blocks and lookups ----------------------------------------------------- */

static void check_block(void *p, size_t size, size_t align, long tag) {
  struct md_block b;
  expect(p && ((uintptr_t)p & (align - 1)) == 0, "aligned", tag);
  if (!p)
    return;
  expect(md_heap_find(p, &b) == MD_BLOCK && b.user == p && b.size == size,
         "the start resolves to the block", tag);
  expect(md_block_state(&b) == MD_STATE_LIVE, "live", tag);
  /* Every byte of a small block, a sample of a large one. */
  size_t step = size > 4096 ? size / 97 + 1 : 1;
  int wrong = 0;
  for (size_t off = 1; off < size; off += step) {
    struct md_block in;
    if (md_heap_find((char *)p + off, &in) != MD_INTERIOR || in.user != p)
      wrong++;
  }
  expect(wrong == 0, "every byte resolves to the block", tag);
  struct md_block out;
  enum md_lookup before = md_heap_find((char *)p - 1, &out);
  expect(before != MD_BLOCK && (before != MD_INTERIOR || out.user != p),
         "the byte before is not the block's", tag);
  enum md_lookup after = md_heap_find((char *)p + size + md_heap.rear_guard, &out);
  expect(after != MD_BLOCK || out.user != p, "past the guard is not the block",
         tag);
}

static void blocks(void) {
  static const size_t sizes[] = {0,    1,    15,   16,    17,    100,   128,
                                 129,  1000, 4095, 4096,  4097,  65536, 131072,
                                 131073, 1 << 20};
  static const size_t aligns[] = {16, 32, 64, 256, 4096, 8192, 1 << 20};
  long tag = 0;
  for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
    for (size_t a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++, tag++) {
      void *p = memalign(aligns[a], sizes[s]);
      check_block(p, sizes[s], aligns[a], tag);
      if (p)
        memset(p, 0x5a, sizes[s]);
      free(p);
      struct md_block b;
      expect(md_heap_find(p, &b) == MD_BLOCK &&
                 md_block_state(&b) == MD_STATE_QUARANTINED,
             "freed: quarantined", tag);
    }
  /* free_track=16: after 16 more frees the first block left the
   * quarantine; not reused yet, it is still known as freed. */
  char *first = malloc(5000);
  free(first);
  for (int i = 0; i < 16; i++) {
    void *volatile q = malloc(24); /* volatile: no malloc/free pair elided */
    free(q);
  }
  struct md_block b;
  expect(md_heap_find(first, &b) == MD_BLOCK &&
             md_block_state(&b) == MD_STATE_FREED,
         "out of the quarantine: freed", 0);
}

/* ---- caches against a model ------------------------------------------------ */

#define THREADS 4
#define ROUNDS 200000
#define SLOTS 512

/* Every block any thread holds; a block handed out while listed here was
 * handed out twice. */
static void *volatile held[THREADS][SLOTS];
static size_t doubled;
static void *volatile exchange[64];

static bool listed(void *p) {
  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < SLOTS; i++)
      if (held[t][i] == p)
        return true;
  return false;
}

static void *churn(void *arg) {
  long me = (long)arg;
  unsigned seed = (unsigned)me * 7919u + 1;
  for (long r = 0; r < ROUNDS; r++) {
    int i = rand_r(&seed) % SLOTS;
    void *old = held[me][i];
    if (old) {
      held[me][i] = NULL;
      /* Half of the frees hand the block to another thread to free. */
      if (rand_r(&seed) & 1)
        old = __atomic_exchange_n(&exchange[rand_r(&seed) % 64], old,
                                  __ATOMIC_ACQ_REL);
      free(old);
    }
    size_t size = (size_t)1 << (rand_r(&seed) % 12);
    void *p = malloc(size + rand_r(&seed) % size);
    if (r % 997 == 0 && listed(p))
      __atomic_add_fetch(&doubled, 1, __ATOMIC_RELAXED);
    held[me][i] = p;
  }
  return NULL;
}

static void *warm(void *arg) {
  void *volatile p = malloc(10);
  free(p);
  return arg;
}

static void caches(void) {
  struct md_heap_stats before, after;
  pthread_t t[THREADS];
  /* The loader allocates a thread's dtv and keeps it with the cached stack:
   * those blocks exist before the count. */
  for (long i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, warm, NULL);
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  md_heap_stats(&before);
  for (long i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, churn, (void *)i);
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  size_t model = 0;
  for (int i = 0; i < 64; i++)
    model += exchange[i] != NULL;
  for (int i = 0; i < THREADS; i++)
    for (int j = 0; j < SLOTS; j++)
      model += held[i][j] != NULL;
  md_heap_stats(&after);
  expect(doubled == 0, "no block handed out while live", (long)doubled);
  expect(after.live_blocks - before.live_blocks == model,
         "live blocks match the model", (long)(after.live_blocks - before.live_blocks));
  /* Every block the threads hold is distinct and live. */
  int bad = 0;
  for (int i = 0; i < THREADS; i++)
    for (int j = 0; j < SLOTS; j++) {
      struct md_block b;
      void *p = held[i][j];
      if (p && (md_heap_find(p, &b) != MD_BLOCK ||
                md_block_state(&b) != MD_STATE_LIVE))
        bad++;
    }
  expect(bad == 0, "held blocks are live", bad);
  for (int i = 0; i < THREADS; i++)
    for (int j = 0; j < SLOTS; j++)
      free(held[i][j]);
  for (int i = 0; i < 64; i++)
    free(exchange[i]);
}

/* ---- release to the OS ------------------------------------------------------- */

static size_t resident_pages(void *p, size_t len) {
  size_t page = 4096, n = (len + page - 1) / page, count = 0;
  unsigned char *vec = malloc(n);
  uintptr_t begin = (uintptr_t)p & ~(page - 1);
  if (mincore((void *)begin, n * page, vec) == 0)
    for (size_t i = 0; i < n; i++)
      count += vec[i] & 1;
  free(vec);
  return count;
}

static void release(void) {
  enum { N = 8192, SIZE = 2000 }; /* 16 MB in one class */
  static char *v[N];
  for (int i = 0; i < N; i++) {
    v[i] = malloc(SIZE);
    memset(v[i], 1, SIZE);
  }
  char *lo = v[0], *hi = v[0];
  for (int i = 0; i < N; i++) {
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
  }
  size_t span = (size_t)(hi - lo) + SIZE;
  size_t before = resident_pages(lo, span);
  for (int i = 0; i < N; i++)
    free(v[i]);
  for (int i = 0; i < 64; i++) { /* push the last ones out of the quarantine */
    void *volatile q = malloc(16);
    free(q);
  }
  md_heap_release_all();
  size_t after = resident_pages(lo, span);
  expect(before > 3000 && after < before / 4, "free pages go back to the OS",
         (long)after);
  /* Reused, those slots work and have their guards again. */
  for (int i = 0; i < N; i++) {
    v[i] = malloc(SIZE);
    memset(v[i], 2, SIZE);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    struct md_block b;
    if (md_heap_find(v[i], &b) != MD_BLOCK || !md_guard_check(&b, 0, 0))
      bad++;
    free(v[i]);
  }
  expect(bad == 0, "released slots come back with intact guards", bad);
  expect(malloc_trim(0) == 1 || malloc_trim(0) == 0, "malloc_trim answers", 0);
}

/* ---- depot and unwinder ------------------------------------------------------ */

static __attribute__((noinline)) size_t unwind_here(uintptr_t *pcs, size_t n) {
  size_t got = md_unwind(pcs, n);
  __asm__ volatile("" ::: "memory"); /* no tail call: keep this frame */
  return got;
}

static __attribute__((noinline)) void depot_and_unwinder(void) {
  uintptr_t a[3] = {0x1000, 0x2000, 0x3000}, b[3] = {0x1000, 0x2000, 0x3001};
  md_depot_init();
  uint32_t ia = md_depot_put(a, 3), ib = md_depot_put(b, 3);
  expect(ia > MD_STACK_EMPTY && ib > MD_STACK_EMPTY && ia != ib, "distinct ids", 0);
  expect(md_depot_put(a, 3) == ia, "same stack, same id", 0);
  expect(md_depot_put(a, 0) == MD_STACK_EMPTY, "empty stack id", 0);
  size_t n;
  const uintptr_t *got = md_depot_get(ia, &n);
  expect(n == 3 && got && got[2] == 0x3000, "frames come back", 0);
  md_depot_get(0x7fffffff, &n);
  expect(n == 0, "an id past the depot is refused", 0);
  uintptr_t pcs[8];
  n = unwind_here(pcs, 8);
  struct md_symbol sym;
  expect(n >= 2 && md_symbolize(pcs[0], &sym) && sym.function &&
             strcmp(sym.function, "unwind_here") == 0,
         "frame 0 is the caller of md_unwind", 0);
  expect(n >= 2 && md_symbolize(pcs[1], &sym) && sym.function &&
             strcmp(sym.function, "depot_and_unwinder") == 0,
         "frame 1 is its caller", 0);
}

int main(void) {
  free(malloc(1)); /* the runtime is up */
  size_classes();
  blocks();
  caches();
  release();
  depot_and_unwinder();
  printf("heap_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
