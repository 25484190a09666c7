// Proves: the block table (track.c) stays exact under heavy churn: after
// every one of 200,000 random inserts, releases (keep or drop) and removals,
// each pointer's state matches a reference model; counts match; a walk lists
// every entry once; tables grow past their first slab; slots released by
// another thread come back to their table and are reused, never handed out
// twice; a block released by another thread while a walk runs is not given
// back to glibc before the walk ends (with membarrier, and with the fences
// used where the kernel lacks it). Also the stack depot (depot.c): the same stack
// always gets the same id, different stacks different ids, ids of garbage
// are refused; and the unwinder (unwind.c) names this test's own frames.
// RUN: %clang -O1 -fno-omit-frame-pointer -I%mdebug_src/runtime/src -I%mdebug_include %s %mdebug_rt_a -o %t -lpthread
// RUN: env MDEBUG_OPTIONS=verify_pointers %t 2>&1 | %FileCheck %s
// CHECK: track_test: {{[0-9]+}} passed, 0 failed
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chunk.h"
/* internal.h puts what follows in the runtime's section, whose frames the
 * unwinder skips: this test's own code goes back to .text. */
#pragma clang section text = ""

static int passed, failed;
static void expect(int ok, const char *what, long i) {
  if (ok) {
    passed++;
  } else if (failed++ < 20) {
    printf("FAILED: %s (step %ld)\n", what, i);
  }
}

#define N 4096
static enum md_track_state model[N];
static void *ptrs[N];

static void count_walk(void *user, void *arg) {
  (void)user;
  (*(size_t *)arg)++;
}

static __attribute__((noinline)) size_t unwind_here(uintptr_t *pcs, size_t n) {
  size_t got = md_unwind(pcs, n);
  __asm__ volatile("" ::: "memory"); /* no tail call: keep this frame */
  return got;
}

/* ---- slots released by another thread ------------------------------------ */

#define M 5000
static void *mine[M];

static void *release_all(void *arg) {
  for (int k = 0; k < M; k++)
    if (md_track_release(mine[k], false) != MD_TRACK_LIVE)
      (*(int *)arg)++;
  return NULL;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Blocks whose header crosses a page boundary are hashed, not slotted. */
static uint32_t slot_of(void *p) {
  return ((uintptr_t)p & 4095) < md_layout.prefix ? UINT32_MAX
                                                   : md_chunk_of(p)->slot;
}

static void remote_slots(void) {
  static uint32_t before[M], after[M];
  for (int k = 0; k < M; k++) {
    mine[k] = malloc(32);
    before[k] = slot_of(mine[k]);
  }
  int wrong = 0;
  pthread_t t;
  pthread_create(&t, NULL, release_all, &wrong);
  pthread_join(t, NULL);
  expect(wrong == 0, "another thread releases every block", 0);
  for (int k = 0; k < M; k++) {
    expect(md_track_lookup(mine[k]) == MD_TRACK_ABSENT, "released", k);
    md_track_insert_live(mine[k]);
    after[k] = slot_of(mine[k]);
  }
  qsort(before, M, sizeof(before[0]), cmp_u32);
  qsort(after, M, sizeof(after[0]), cmp_u32);
  for (int k = 0; k < M; k++) {
    expect(before[k] == after[k], "the released slots are the ones reused", k);
    expect(k == 0 || after[k] != after[k - 1] || after[k] == UINT32_MAX,
           "no slot handed out twice", k);
    expect(md_track_lookup(mine[k]) == MD_TRACK_LIVE, "reinserted", k);
  }
}

/* ---- a release during a walk waits for the walk --------------------------- */

static void *victim;
static int go, released;

static void *release_victim(void *arg) {
  while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
    usleep(100);
  md_track_release(victim, false); /* the entry empties at once */
  md_track_before_release();       /* then it waits for the walk */
  __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
  return arg;
}

static void during_walk(void *user, void *arg) {
  if (user != victim)
    return;
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
  usleep(200000); /* the releaser runs meanwhile */
  *(int *)arg = __atomic_load_n(&released, __ATOMIC_ACQUIRE);
}

static void release_during_walk(void) {
  go = released = 0;
  victim = malloc(48);
  pthread_t t;
  pthread_create(&t, NULL, release_victim, NULL);
  int released_in_walk = -1;
  md_track_for_each(MD_TRACK_LIVE, during_walk, &released_in_walk);
  pthread_join(t, NULL);
  expect(released_in_walk == 0, "no release before the walk ends", 0);
  expect(released == 1, "the release goes on after the walk", 0);
}

int main(void) {
  /* Real blocks, so their headers name a table. */
  for (int k = 0; k < N; k++) {
    ptrs[k] = malloc(16 + k % 200);
    md_track_release(ptrs[k], false); /* an empty model */
  }
  srand(7);
  for (long i = 0; i < 200000; i++) {
    int k = rand() % N, op = rand() % 4;
    void *p = ptrs[k];
    if (op == 0 && model[k] == MD_TRACK_ABSENT) {
      md_track_insert_live(p);
      model[k] = MD_TRACK_LIVE;
    } else if (op == 1) {
      bool keep = rand() % 2;
      enum md_track_state was = md_track_release(p, keep);
      expect(was == model[k], "release returns the state before", i);
      if (model[k] == MD_TRACK_LIVE)
        model[k] = keep ? MD_TRACK_FREED : MD_TRACK_ABSENT;
    } else if (op == 2) {
      md_track_remove(p);
      model[k] = MD_TRACK_ABSENT;
    }
    int j = rand() % N;
    if (md_track_lookup(ptrs[j]) != model[j])
      expect(0, "lookup matches the model", i);
  }
  size_t live = 0, freed = 0;
  for (int k = 0; k < N; k++) {
    live += model[k] == MD_TRACK_LIVE;
    freed += model[k] == MD_TRACK_FREED;
    expect(md_track_lookup(ptrs[k]) == model[k], "final lookup", k);
  }
  expect(md_track_count(MD_TRACK_LIVE) == live, "live count", 0);
  expect(md_track_count(MD_TRACK_FREED) == freed, "freed count", 0);
  size_t walked = 0;
  md_track_for_each_stopped(MD_TRACK_LIVE, count_walk, &walked);
  expect(walked == live, "lock-free walk lists each live entry once", 0);
  remote_slots();
  release_during_walk(); /* with membarrier, where the kernel has it */
  md_track_membarrier = false; /* as on a kernel without it: fences */
  release_during_walk();

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
             strcmp(sym.function, "main") == 0,
         "frame 1 is main", 0);
  printf("track_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
