// Proves: md_unwind leaves out the frames of another copy of the runtime
// once its code is announced (md_unwind_add_runtime_code), wherever they
// sit in the stack, and only those: before the announcement the same frame
// is kept; frames above and below it stay; announcing twice adds nothing.
// md_unwind_hashed's hash is md_depot_put's of the same frames (one id).
// RUN: %clang -O1 -g -fno-omit-frame-pointer -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared -I%mdebug_include %s %mdebug_rt_a -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s
// CHECK: unwind_test: 9 passed, 0 failed
#include <stdio.h>

#include "base.h"
#include "stacks.h"

/* This file's own functions are the program's, not the runtime's. */
#pragma clang section text = ""

#include "expect.h"

/* Stands for an inert copy's code: its own section, bounded by the
 * linker's __start/__stop symbols as a copy's mdebug_text is. */
extern char __start_fake_copy[], __stop_fake_copy[];

static uintptr_t pcs[64];

__attribute__((noinline)) static size_t leaf(void) {
  size_t n = md_unwind(pcs, 64);
  __asm__ volatile("" ::: "memory");
  return n;
}

__attribute__((noinline, section("fake_copy"))) static size_t in_copy(void) {
  size_t n = leaf();
  __asm__ volatile("" ::: "memory");
  return n;
}

__attribute__((noinline)) static size_t outer(void) {
  size_t n = in_copy();
  __asm__ volatile("" ::: "memory");
  return n;
}

static bool has(size_t n, uintptr_t lo, uintptr_t hi) {
  for (size_t i = 0; i < n; i++)
    if (pcs[i] >= lo && pcs[i] < hi)
      return true;
  return false;
}

/* pcs[i] lies in fn (a small one: its call is within 64 bytes). */
static bool in_function(size_t i, void *fn) {
  return pcs[i] >= (uintptr_t)fn && pcs[i] < (uintptr_t)fn + 64;
}

int main(void) {
  md_unwind_refresh_code();
  uintptr_t lo = (uintptr_t)__start_fake_copy, hi = (uintptr_t)__stop_fake_copy;
  size_t n = outer();
  EXPECT(has(n, lo, hi)); /* not announced: kept */
  md_unwind_add_runtime_code(lo, hi);
  md_unwind_add_runtime_code(lo, hi);
  size_t m = outer();
  EXPECT(!has(m, lo, hi));
  EXPECT(m == n - 1);
  EXPECT(m >= 3); /* leaf, outer, main (, libc) */
  EXPECT(in_function(0, (void *)leaf));
  EXPECT(
      in_function(1, (void *)outer)); /* in_copy's frame, between, left out */
  EXPECT(pcs[2] > (uintptr_t)main && pcs[2] < (uintptr_t)main + 4096);
  /* md_unwind_hashed's hash, made while walking, is the one md_depot_put
   * makes of the same frames: one depot id either way. */
  md_depot_init();
  uint64_t h;
  size_t k = md_unwind_hashed(pcs, 64, 0, &h);
  EXPECT(k >= 1 && pcs[0] > (uintptr_t)main && pcs[0] < (uintptr_t)main + 4096);
  uint32_t id = md_depot_put_hashed(pcs, k, h);
  EXPECT(id > MD_STACK_EMPTY && md_depot_put(pcs, k) == id);
  printf("unwind_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
