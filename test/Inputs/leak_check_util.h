/* leak_check_util.h - helpers for test/runtime/leak_check. A test that
 * proves "the only pointer to this block lives in X" must make sure no
 * other copy survives: the dead frames of the calls that made the block
 * (malloc's, the test's helpers') lie just below the stack pointer, where
 * the red zone a leak scan covers reaches. scrub_stack() overwrites them. */
#ifndef LEAK_CHECK_UTIL_H
#define LEAK_CHECK_UTIL_H

#include <string.h>

/* Zeroes the 16 KiB below the caller's stack pointer. */
static __attribute__((noinline)) void scrub_stack(void) {
  char area[16384];
  memset(area, 0, sizeof(area));
  __asm__ volatile("" : : "r"(area) : "memory");
}

#endif
