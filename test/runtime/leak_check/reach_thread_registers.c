// Proves: a block whose only pointer is in a register of another running
// thread (one spinning in an asm loop, the pointer in r12) is not a leak:
// the saved registers of the threads other than the exiting one are roots.
// The control run leaves only the pointer XOR a key in r12 (no pointer
// anywhere), and the block is then reported.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s --allow-empty
// RUN: %not %t drop 2>&1 | %FileCheck %s --check-prefix=CONTROL
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "leak_check_util.h"

#define KEY 0x5a5a5a5a5a5a5a5aull

static int ready, drop;
static uintptr_t hidden; /* the pointer XOR KEY: points nowhere */

static __attribute__((noinline)) void allocate_hidden(void) {
  char *block = malloc(40);
  strcpy(block, "held in r12 only");
  hidden = (uintptr_t)block ^ KEY;
}

static void *spinner(void *arg) {
  allocate_hidden();
  scrub_stack();
  uintptr_t key = drop ? 0 : KEY;
  /* r12 = hidden ^ key; the other scratch registers are zeroed; then spin
   * for ever. The inputs hold hidden and the key, neither a pointer. */
  __asm__ volatile("mov %1, %%r12\n\t"
                   "xor %2, %%r12\n\t"
                   "xor %%eax, %%eax\n\t"
                   "xor %%ecx, %%ecx\n\t"
                   "xor %%edx, %%edx\n\t"
                   "xor %%esi, %%esi\n\t"
                   "xor %%edi, %%edi\n\t"
                   "xor %%r8d, %%r8d\n\t"
                   "xor %%r9d, %%r9d\n\t"
                   "xor %%r10d, %%r10d\n\t"
                   "xor %%r11d, %%r11d\n\t"
                   "pxor %%xmm0, %%xmm0\n\t"
                   "movl $1, %0\n\t"
                   "1: pause\n\t"
                   "jmp 1b"
                   : "=m"(ready)
                   : "r"(hidden), "r"(key)
                   : "r12", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
                     "r10", "r11", "xmm0", "memory");
  return NULL;
}

int main(int argc, char **argv) {
  drop = argc > 1;
  pthread_t t;
  pthread_create(&t, NULL, spinner, NULL);
  while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
    sched_yield();
  return 0;
}
// CHECK-NOT: mdebug
// CONTROL: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CONTROL-NEXT: mdebug: 40 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CONTROL-NEXT: Direct leak of 40 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at {{.*}}reach_thread_registers.c:23:17 (allocate_hidden)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 40 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CONTROL-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CONTROL-NEXT: mdebug: SUMMARY: 0 errors, 40 bytes leaked in 1 block
