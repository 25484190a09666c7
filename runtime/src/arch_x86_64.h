/* arch_x86_64.h - what stopping threads and listing their roots needs to know
 * about the machine: raw system calls (no errno, no PLT: usable in a tracer
 * task that shares the caller's TLS and in a signal handler on a nearly full
 * stack), the registers of a stopped thread, the red zone, and the entry
 * code that records the caller's callee-saved registers.
 *
 * One header per architecture; only x86-64 exists. Porting means a new
 * arch_<name>.h with the same names, chosen where it is included
 * (platform_linux.h, which every user of md_sysN includes, and the stop and
 * roots files, which read registers).
 */
#ifndef MDEBUG_ARCH_X86_64_H
#define MDEBUG_ARCH_X86_64_H

#if !defined(__x86_64__)
#error "mdebug stops threads and reads their registers on x86-64 Linux only; \
another architecture needs its own arch_<name>.h (raw system calls, register \
sets, red zone, entry code)"
#endif

#include <stddef.h>
#include <stdint.h>
#include <sys/user.h>
#include <ucontext.h>

/* Below the stack pointer, bytes a leaf function may use without moving it. */
#define MD_ARCH_RED_ZONE 128

/* ---- raw system calls: the kernel's result, -errno on failure ------------ */
static inline long md_sys6(long n, long a, long b, long c, long d, long e,
                           long f) {
  long ret;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}
#define md_sys0(n) md_sys6((n), 0, 0, 0, 0, 0, 0)
#define md_sys1(n, a) md_sys6((n), (long)(a), 0, 0, 0, 0, 0)
#define md_sys2(n, a, b) md_sys6((n), (long)(a), (long)(b), 0, 0, 0, 0)
#define md_sys3(n, a, b, c) md_sys6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define md_sys4(n, a, b, c, d)                                                 \
  md_sys6((n), (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define md_sys5(n, a, b, c, d, e)                                              \
  md_sys6((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

/* ---- a stopped thread's registers ----------------------------------------
 * Kept as a flat array of words that may hold pointers: the general
 * registers, then xmm0-15 (two words each; compilers keep pointers there). */
#define MD_ARCH_GREG_WORDS (sizeof(struct user_regs_struct) / 8)
#define MD_ARCH_XMM_WORDS 32
#define MD_ARCH_REG_WORDS (MD_ARCH_GREG_WORDS + MD_ARCH_XMM_WORDS)
/* In ptrace's register sets (PTRACE_GETREGSET): NT_PRSTATUS is a struct
 * user_regs_struct; NT_PRFPREG a struct user_fpregs_struct, whose
 * xmm_space holds xmm0-15. */
#define MD_ARCH_SP_INDEX (offsetof(struct user_regs_struct, rsp) / 8)
#define MD_ARCH_TP_INDEX (offsetof(struct user_regs_struct, fs_base) / 8)
#define MD_ARCH_FPREGS_SIZE sizeof(struct user_fpregs_struct)
#define MD_ARCH_XMM_OFFSET offsetof(struct user_fpregs_struct, xmm_space)

/* From a signal handler's context (the fallback stop): gregs then xmm;
 * the stack pointer. Plain loops: no memcpy call (a PLT call could need
 * the dynamic linker's resolver, which a nearly full stack cannot hold). */
static inline uintptr_t md_arch_regs_from_context(uintptr_t *regs,
                                                  const void *ucv) {
  const ucontext_t *uc = ucv;
  size_t i = 0;
  for (; i < NGREG && i < MD_ARCH_GREG_WORDS; i++)
    ((volatile uintptr_t *)regs)[i] = (uintptr_t)uc->uc_mcontext.gregs[i];
  for (; i < MD_ARCH_GREG_WORDS; i++)
    ((volatile uintptr_t *)regs)[i] = 0;
  const uintptr_t *xmm =
      uc->uc_mcontext.fpregs ? (const uintptr_t *)uc->uc_mcontext.fpregs->_xmm
                             : NULL;
  for (size_t k = 0; k < MD_ARCH_XMM_WORDS; k++)
    ((volatile uintptr_t *)regs)[MD_ARCH_GREG_WORDS + k] = xmm ? xmm[k] : 0;
  return (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
}

/* ---- the entry code --------------------------------------------------------
 * The caller's callee-saved registers (the only ones live across a call)
 * and its stack pointer before the call, stored in a struct md_arch_entry
 * on the stack before any compiled code can touch them, then TARGET(a0, a1,
 * &entry) is called. The caller's stack region starts at that stack pointer:
 * the entry's own frames and their stale words are not roots. */
struct md_arch_entry {
  uintptr_t rbx, rbp, r12, r13, r14, r15, sp, pad;
};
#define MD_ARCH_ENTRY_WORDS 6 /* rbx .. r15 */
#define MD_ARCH_ENTRY_ASM(TARGET)                                              \
  __asm__ volatile("push %%rbp\n\t"                                           \
                   "mov %%rsp, %%rbp\n\t"                                     \
                   "sub $64, %%rsp\n\t" /* the struct; keeps 16-alignment */  \
                   "mov %%rbx, 0(%%rsp)\n\t"                                  \
                   "mov 0(%%rbp), %%rax\n\t" /* the caller's rbp */           \
                   "mov %%rax, 8(%%rsp)\n\t"                                  \
                   "mov %%r12, 16(%%rsp)\n\t"                                 \
                   "mov %%r13, 24(%%rsp)\n\t"                                 \
                   "mov %%r14, 32(%%rsp)\n\t"                                 \
                   "mov %%r15, 40(%%rsp)\n\t"                                 \
                   "lea 16(%%rbp), %%rax\n\t" /* sp before the call */        \
                   "mov %%rax, 48(%%rsp)\n\t"                                 \
                   "mov %%rsp, %%rdx\n\t"                                     \
                   "call %P0\n\t"                                             \
                   "leave\n\t"                                                \
                   "ret"                                                      \
                   :                                                          \
                   : "i"(TARGET))

#endif
