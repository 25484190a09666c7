// Proves: the frame-pointer walk (md_unwind_from over frames built on the
// stack) keeps the program's return addresses, leaves out one in the
// runtime's own text wherever it sits (also right after a program frame,
// inside the walk's cached code range's segment), and stops at the first
// frame that breaks a rule: a return address outside every module's code,
// a next fp that is not higher, misaligned, or past the stack's mapping.
// RUN: %clang -O1 -g -fno-omit-frame-pointer -I%mdebug_src/runtime/src -I%mdebug_src/runtime/shared -I%mdebug_include %s %mdebug_rt_a -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s
// CHECK: unwind_rules_test: 18 passed, 0 failed
#include <stdio.h>

#include "base.h"
#include "stacks.h"

/* This file's own functions are the program's, not the runtime's. */
#pragma clang section text = ""

#include "expect.h"

__attribute__((noinline)) static int program_code(int x) { return x * 3 + 1; }

static uintptr_t out[16];

/* Frames i = 0.. at st[2i] (next, return address): a chain of nf frames
 * whose last one's next is given; walked from frame 0. */
static size_t walk_fake(uintptr_t *st, const uintptr_t *ret, size_t nf,
                        uintptr_t last_next) {
  for (size_t i = 0; i < nf; i++) {
    st[2 * i] = i + 1 < nf ? (uintptr_t)&st[2 * (i + 1)] : last_next;
    st[2 * i + 1] = ret[i];
  }
  __asm__ volatile("" ::: "memory");
  return md_unwind_from((uintptr_t)program_code, (uintptr_t)st,
                        (uintptr_t)st, out, 16);
}

int main(void) {
  md_unwind_refresh_code();
  uintptr_t prog = (uintptr_t)program_code + 8;
  uintptr_t prog2 = (uintptr_t)main + 8;
  uintptr_t rt = (uintptr_t)md_unwind + 8; /* the runtime's own text */
  uintptr_t st[32];

  /* program, runtime, program, then a return address in no module. */
  uintptr_t a[] = {prog, rt, prog2, 0x10000, prog};
  size_t n = walk_fake(st, a, 5, 0);
  EXPECT(n == 3);
  EXPECT(out[0] == (uintptr_t)program_code);
  EXPECT(out[1] == prog - 1);
  EXPECT(out[2] == prog2 - 1);

  /* The runtime's frame first, then the program's. */
  uintptr_t b[] = {rt, rt, prog, prog2};
  n = walk_fake(st, b, 4, 0);
  EXPECT(n == 3);
  EXPECT(out[1] == prog - 1);
  EXPECT(out[2] == prog2 - 1);

  /* A next fp lower than the frame: the walk stops after that frame. */
  uintptr_t c[] = {prog, prog2};
  n = walk_fake(st, c, 2, (uintptr_t)&st[0]);
  EXPECT(n == 3);
  EXPECT(out[2] == prog2 - 1);

  /* Misaligned next fp. */
  n = walk_fake(st, c, 2, (uintptr_t)&st[8] + 4);
  EXPECT(n == 3);

  /* A next fp past the stack's mapping (not even a canonical address:
   * reading it would fault). */
  n = walk_fake(st, c, 2, (uintptr_t)&st[0] + ((uintptr_t)1 << 46));
  EXPECT(n == 3);

  /* A return address below 4096. */
  uintptr_t d[] = {prog, 100, prog2};
  n = walk_fake(st, d, 3, 0);
  EXPECT(n == 2);
  EXPECT(out[1] == prog - 1);

  /* A data address (this stack) as a return address. */
  uintptr_t e[] = {prog2, (uintptr_t)&st[20], prog};
  n = walk_fake(st, e, 3, 0);
  EXPECT(n == 2);
  EXPECT(out[1] == prog2 - 1);

  /* max frames: the walk stops at the count. */
  uintptr_t f[] = {prog, prog2, prog, prog2, prog};
  n = walk_fake(st, f, 5, 0);
  EXPECT(n == 6);
  EXPECT(out[5] == prog - 1);
  n = md_unwind_from((uintptr_t)program_code, (uintptr_t)st, (uintptr_t)st,
                     out, 2);
  EXPECT(n == 2);

  printf("unwind_rules_test: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
