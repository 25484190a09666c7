/* leak_check_util.h - helpers for test/runtime/leak_check. A test that
 * proves "the only pointer to this block lives in X" must make sure no
 * other copy survives: the dead frames of the calls that made the block
 * (malloc's, the test's helpers') lie just below the stack pointer, where
 * the red zone a leak scan covers reaches. scrub_stack() overwrites them. */
#ifndef LEAK_CHECK_UTIL_H
#define LEAK_CHECK_UTIL_H

#include <string.h>

/* Zeroes the 16 KiB below the caller's stack pointer, and the registers a
 * call may leave holding a stale value (the caller-saved ones: nothing
 * after the call need clobber them before the thread blocks, and a leak
 * scan reads a stopped thread's registers). */
static __attribute__((noinline)) void scrub_stack(void) {
  char area[16384];
  memset(area, 0, sizeof(area));
  __asm__ volatile("" : : "r"(area) : "memory");
#if defined(__x86_64__)
  __asm__ volatile("xor %%eax, %%eax\n\txor %%ecx, %%ecx\n\txor %%edx, %%edx\n\t"
                   "xor %%esi, %%esi\n\txor %%edi, %%edi\n\txor %%r8d, %%r8d\n\t"
                   "xor %%r9d, %%r9d\n\txor %%r10d, %%r10d\n\txor %%r11d, %%r11d\n\t"
                   "pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
                   "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
                   "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7"
                   ::: "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
                       "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7");
#endif
}

#endif
