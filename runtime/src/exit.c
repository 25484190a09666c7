/* exit.c - the runtime's exit(): records where the program called it, then
 * calls the C library's.
 *
 * The exit-time leak scan does not treat the exiting thread's frames as
 * roots: after main returns, main's dead frame still holds pointers that
 * would hide real leaks. But a program that calls exit() from a helper
 * (a command-line tool giving up on an error) still has main's frame, and
 * every frame down to that call, alive. So exit() records the caller's
 * stack pointer and callee-saved registers; the scan then reads the
 * exiting thread's stack from that point up (md_exit_live_sp), and the
 * registers, kept here in the runtime's static data (a module segment
 * every scan reads), are roots from then on. glibc's own call of exit()
 * after main returns goes through an internal alias and does not come
 * here: that path keeps skipping the whole stack.
 *
 * Defined and exported like malloc: in an executable linked with the static
 * runtime it is the program's exit(); with libmdebug-rt.so preloaded it
 * interposes on every call through the PLT. Weak, so a program that defines
 * its own exit() links (and keeps the old, whole-stack-skipped behaviour). The C library's exit() is found
 * with dlsym(RTLD_NEXT), which allocates nothing when the symbol exists.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>

#include "base.h"
#include "arch_x86_64.h"
#include "exit.h"
#include "platform.h"

static uintptr_t exit_regs[MD_ARCH_ENTRY_WORDS];
static uintptr_t exit_sp;
static int exit_tid;

__attribute__((noreturn, used)) static void
record_exit(int status, long unused, const struct md_arch_entry *e) {
  (void)unused;
  exit_regs[0] = e->rbx;
  exit_regs[1] = e->rbp;
  exit_regs[2] = e->r12;
  exit_regs[3] = e->r13;
  exit_regs[4] = e->r14;
  exit_regs[5] = e->r15;
  exit_sp = e->sp;
  __atomic_store_n(&exit_tid, md_gettid(), __ATOMIC_RELEASE);
  void (*real_exit)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
  if (!real_exit)
    md_die("cannot find the C library's exit()");
  real_exit(status);
  _exit(status); /* not reached */
}

/* The caller's registers and stack pointer, saved before any compiled code
 * runs (the entry code of arch_x86_64.h), then record_exit. */
MD_EXPORT __attribute__((naked, weak)) void exit(int status) {
  MD_ARCH_ENTRY_ASM(record_exit);
}

uintptr_t md_exit_live_sp(void) {
  return __atomic_load_n(&exit_tid, __ATOMIC_ACQUIRE) == md_gettid() ? exit_sp
                                                                      : 0;
}
