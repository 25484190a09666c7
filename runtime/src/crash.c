/* crash.c - a word from mdebug when the program dies of SIGSEGV, SIGBUS or
 * abort(). For a fault, a report of what the faulting address (si_addr) is
 * to the heap: inside, before or after which block (a page-guarded or
 * large block's inaccessible pages: a use after free, an overflow; unused
 * heap: the nearest block), the block's sizes and sites, the faulting
 * instruction and the stack at the fault. Then, for every one of the three,
 * the SUMMARY line of what was reported so far (report.c), before the signal
 * takes the process down.
 *
 * The program's own handling comes first. mdebug's handler is installed at
 * start-up, by the active copy only, for those of the signals whose
 * disposition is still the default: a handler installed earlier (by another
 * library) is left alone, and one the program installs later replaces it
 * (and may chain to it). A handler that chains with the three arguments
 * gets the report; one that passes the signal number alone gets the summary
 * (what the kernel passed is checked, not trusted: the handler knows it was
 * called by the kernel when it returns to the restorer sigaction set). The
 * handler runs once (SA_RESETHAND: the disposition is the default again
 * when it starts), prints, and raises the signal again, so the process
 * still dies of it: same exit status, same core dump. The main thread gets
 * an alternate signal stack, mapped (never malloc'ed), unless it has one,
 * so that a stack overflow is reported too.
 *
 * The handler never allocates and never waits on a lock for long: the
 * report lock and the large blocks' table are tried, then done without.
 * A fault while it describes the crash (a forged site, damaged metadata)
 * cuts the report short; the summary still follows. A fault inside one of
 * mdebug's own reports gets the summary only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stddef.h>
#include <signal.h>
#include <string.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include "crash.h"
#include "heap.h"
#include "origin.h"
#include "report.h"
#include "scan_contract.h"
#include "site.h"
#include "stacks.h"

#define PAGE ((uintptr_t)4096)
#define MAX_FRAMES 64

static const struct {
  int sig;
  const char *name, *what;
} fatal[] = {
    {SIGSEGV, "SIGSEGV", "segmentation fault"},
    {SIGBUS, "SIGBUS", "bus error"},
    {SIGABRT, "SIGABRT", "aborted"},
};
#define FATAL_COUNT (sizeof(fatal) / sizeof(fatal[0]))

static int summarised; /* by the first thread to die */
static void (*restorer)(void); /* where a handler the kernel called returns */

/* What the kernel said about a fault. */
struct fault {
  int sig, code;
  uintptr_t addr, pc, sp, fp;
  const char *access; /* "read", "write", or "access" when unknown */
};

/* Copies n bytes from src, which may not be readable; false if it is not. */
static bool copy_checked(void *dst, const void *src, size_t n) {
  struct iovec local = {dst, n}, remote = {(void *)src, n};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n;
}

/* The fault's details from the handler's arguments: trusted when the kernel
 * called the handler, copied and checked when a handler of the program
 * chained to it (which may have passed the signal number alone). */
static bool read_fault(int sig, const siginfo_t *info, const void *ctx,
                       bool from_kernel, struct fault *f) {
  siginfo_t si;
  ucontext_t uc;
  size_t regs = offsetof(ucontext_t, uc_sigmask); /* up to the registers */
  if (from_kernel) {
    si = *info;
    memcpy(&uc, ctx, regs);
  } else if (!info || !ctx || !copy_checked(&si, info, sizeof(si)) ||
             si.si_signo != sig || !copy_checked(&uc, ctx, regs)) {
    return false;
  }
  if (si.si_code <= 0)
    return false; /* sent by a process (kill, raise), not a fault */
  f->sig = sig;
  f->code = si.si_code;
  f->addr = (uintptr_t)si.si_addr;
#if defined(__x86_64__)
  const greg_t *r = uc.uc_mcontext.gregs;
  f->pc = (uintptr_t)r[REG_RIP];
  f->sp = (uintptr_t)r[REG_RSP];
  f->fp = (uintptr_t)r[REG_RBP];
  /* A page fault (trap 14) says whether the access wrote (error bit 1). */
  f->access = r[REG_TRAPNO] != 14 ? "access" : (r[REG_ERR] & 2) ? "write"
                                                                 : "read";
#else
  f->pc = f->sp = f->fp = 0;
  f->access = "access";
#endif
  return true;
}

/* What si_code says, for the reports' first line. */
static const char *code_text(const struct fault *f) {
  if (f->sig == SIGSEGV)
    switch (f->code) {
    case SEGV_MAPERR: return "address not mapped";
    case SEGV_ACCERR: return "no access to the page";
    case SI_KERNEL: return "general protection fault: the address is not "
                           "known (a non-canonical pointer?)";
    }
  if (f->sig == SIGBUS)
    switch (f->code) {
    case BUS_ADRALN: return "misaligned address";
    case BUS_ADRERR: return "no memory behind the address (a file cut short?)";
    case BUS_OBJERR: return "hardware error";
    }
  return "sent, not a fault";
}

static void upper(char *dst, const char *src, size_t size) {
  size_t i = 0;
  for (; src[i] && i + 1 < size; i++)
    dst[i] = src[i] >= 'a' && src[i] <= 'z' ? (char)(src[i] - 32) : src[i];
  dst[i] = '\0';
}

/* "pc 0x1139 in function file:line:col (/path/module)": the faulting
 * instruction itself, not a return address. */
static void describe_pc(char *buf, size_t size, uintptr_t pc) {
  md_pc_describe(buf, size, pc);
}

/* Where the address is when it is not in mdebug's heap. */
static void describe_elsewhere(const struct fault *f) {
  if (f->sig == SIGSEGV && f->code == SI_KERNEL)
    return; /* no address to speak of */
  if (f->addr < 65536)
    md_report_line("  %p is not in mdebug's heap: a null pointer (plus an "
                   "offset)", (void *)f->addr);
  else if (f->addr + 65536 >= f->sp && f->addr < f->sp + 65536)
    md_report_line("  %p is not in mdebug's heap: it is near the stack "
                   "pointer (%p), a stack overflow?", (void *)f->addr,
                   (void *)f->sp);
  else
    md_report_line("  %p is not in mdebug's heap", (void *)f->addr);
}

static void report_sites(const struct md_block *b) {
  uint32_t bits = __atomic_load_n(&b->meta->bits, __ATOMIC_ACQUIRE);
  md_report_origin("allocated", MD_BITS_ALLOC_OP(bits),
                   md_origin_of(b->meta->alloc_origin));
  if (MD_BITS_STATE(bits) != MD_STATE_LIVE)
    md_report_origin("freed", MD_BITS_FREE_OP(bits),
                     md_origin_of(b->meta->free_origin));
}

static void report_stack(const struct fault *f) {
  uintptr_t pcs[MAX_FRAMES];
  size_t n = md_unwind_from(f->pc, f->fp, f->sp, pcs, MAX_FRAMES);
  char line[768];
  md_report_line("Backtrace at time of failure:");
  for (size_t i = 0; i < n; i++) {
    md_frame_format(line, sizeof(line), i, pcs[i]);
    md_report_line("%s", line);
  }
}

/* Sets up a report of the fault, once its kind is known; under the nested
 * fault catcher (report_fault). */
static volatile bool begun;

static void describe(const struct fault *f) {
  struct md_block b;
  bool near = (f->sig != SIGSEGV || f->code != SI_KERNEL) &&
              md_heap_near((const void *)f->addr, &b);
  enum { INSIDE, BEFORE, AFTER } where = INSIDE;
  uintptr_t u = near ? (uintptr_t)b.user : 0, e = u + (near ? b.size : 0);
  uintptr_t dist = 0;
  bool freed = near && md_block_state(&b) != MD_STATE_LIVE;
  if (near && f->addr < u) {
    where = BEFORE;
    dist = u - f->addr;
  } else if (near && f->addr >= e) {
    where = AFTER;
    dist = f->addr - e;
  }
  /* Inside a freed block: a use after free. Within a page of a block (its
   * guard page, the slack before it): an overflow. Elsewhere, even in the
   * heap's unused part: an invalid access, naming the nearest block. */
  enum md_error kind = !near                    ? MD_ERR_INVALID_ACCESS
                       : where == INSIDE && freed ? MD_ERR_USE_AFTER_FREE
                       : where != INSIDE && dist < PAGE ? MD_ERR_HEAP_OVERFLOW
                                                        : MD_ERR_INVALID_ACCESS;
  if (!md_report_begin_fatal(kind))
    return;
  begun = true;
  char up[16], pc[512];
  upper(up, f->access, sizeof(up));
  const char *state = freed ? " freed" : "";
  if (kind == MD_ERR_USE_AFTER_FREE) {
    md_report_line("+++ ALLOCATION %p SIZE %zu USED AFTER FREE (%s)", b.user,
                   b.size, f->access);
    md_report_line("  %s at %p: %zu byte%s inside the freed block", f->access,
                   (void *)f->addr, (size_t)(f->addr - u),
                   f->addr - u == 1 ? "" : "s");
  } else if (kind == MD_ERR_HEAP_OVERFLOW) {
    const char *how = !strcmp(f->access, "read")    ? "READ"
                      : !strcmp(f->access, "write") ? "WRITTEN"
                                                    : "ACCESSED";
    md_report_line("+++ ALLOCATION %p SIZE %zu %s %s", b.user, b.size, how,
                   where == AFTER ? "PAST ITS END" : "BEFORE ITS START");
    if (where == AFTER)
      md_report_line("  %s at %p: %zu byte%s after the end of the%s block",
                     f->access, (void *)f->addr, (size_t)dist,
                     dist == 1 ? "" : "s", state);
    else
      md_report_line("  %s at %p: %zu byte%s before the%s block", f->access,
                     (void *)f->addr, (size_t)dist, dist == 1 ? "" : "s",
                     state);
  } else {
    md_report_line("+++ INVALID %s AT %p (%s, %s)", up, (void *)f->addr,
                   f->sig == SIGSEGV ? "SIGSEGV" : "SIGBUS", code_text(f));
    if (!near)
      describe_elsewhere(f);
    else if (where == INSIDE)
      md_report_line("  %p is %zu byte%s inside a%s block of size %zu at %p",
                     (void *)f->addr, (size_t)(f->addr - u),
                     f->addr - u == 1 ? "" : "s", state, b.size, b.user);
    else
      md_report_line("  %p is %zu byte%s %s a%s block of size %zu at %p, the "
                     "nearest block in mdebug's heap", (void *)f->addr,
                     (size_t)dist, dist == 1 ? "" : "s",
                     where == AFTER ? "after the end of" : "before", state,
                     b.size, b.user);
  }
  if (near)
    report_sites(&b);
  describe_pc(pc, sizeof(pc), f->pc);
  if (md_unwind_in_runtime(f->pc)) {
    /* mdebug's own code faulted for the program's call (a stack overflow
     * that the allocator's frames ran into, most often): name that call. */
    uintptr_t call;
    char caller[512] = "a frame that could not be found";
    if (md_unwind_from(f->pc, f->fp, f->sp, &call, 1))
      describe_pc(caller, sizeof(caller), call);
    md_report_line("  %s inside mdebug's runtime (at %s), called from %s",
                   f->access, pc, caller);
  } else {
    md_report_line("  %s by the instruction at %s", f->access, pc);
  }
  if (kind != MD_ERR_INVALID_ACCESS)
    md_report_line("  (%s, %s)", f->sig == SIGSEGV ? "SIGSEGV" : "SIGBUS",
                   code_text(f));
  if (near)
    md_report_block_stacks(&b);
  report_stack(f);
}

static sigjmp_buf nested;
MD_COLD static void on_nested_fault(int sig) {
  (void)sig;
  siglongjmp(nested, 1);
}

/* The report, with a fault inside it caught: reading what the fault points
 * at may fault again. */
MD_COLD static void report_fault(const struct fault *f) {
  struct sigaction catcher, old_segv, old_bus;
  memset(&catcher, 0, sizeof(catcher));
  catcher.sa_handler = on_nested_fault;
  catcher.sa_flags = SA_NODEFER | SA_ONSTACK;
  sigemptyset(&catcher.sa_mask);
  sigaction(SIGSEGV, &catcher, &old_segv);
  sigaction(SIGBUS, &catcher, &old_bus);
  sigset_t faults, before;
  sigemptyset(&faults);
  sigaddset(&faults, SIGSEGV);
  sigaddset(&faults, SIGBUS);
  pthread_sigmask(SIG_UNBLOCK, &faults, &before);
  begun = false;
  if (sigsetjmp(nested, 1) == 0)
    describe(f);
  else if (begun)
    md_report_line("  (mdebug faulted while describing this crash; the "
                   "report stops here)");
  if (begun)
    md_report_end();
  sigaction(SIGSEGV, &old_segv, NULL);
  sigaction(SIGBUS, &old_bus, NULL);
  pthread_sigmask(SIG_SETMASK, &before, NULL);
}

MD_COLD static void on_fatal(int sig, siginfo_t *info, void *ctx) {
  int saved = errno;
  bool from_kernel = restorer && __builtin_return_address(0) == (void *)restorer;
  if (!__atomic_exchange_n(&summarised, 1, __ATOMIC_ACQ_REL)) {
    struct fault f;
    if (sig != SIGABRT && read_fault(sig, info, ctx, from_kernel, &f))
      report_fault(&f);
    for (size_t i = 0; i < FATAL_COUNT; i++)
      if (fatal[i].sig == sig)
        md_report_fatal_summary(fatal[i].name, fatal[i].what);
  }
  /* The default disposition (SA_RESETHAND set it already, unless a handler
   * of the program chained here), then the signal again: pending until
   * this handler returns, it then ends the process (a fault would also
   * recur as the instruction runs again). */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof(dfl));
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  raise(sig);
  errno = saved;
}

/* An alternate stack for the calling (main) thread, if it has none. */
static void add_alternate_stack(void) {
  stack_t old;
  if (sigaltstack(NULL, &old) != 0 || !(old.ss_flags & SS_DISABLE))
    return;
  size_t size = 64 << 10;
  long min = sysconf(_SC_MINSIGSTKSZ);
  if (min > 0 && (size_t)min * 4 > size)
    size = (size_t)min * 4;
  stack_t ss;
  memset(&ss, 0, sizeof(ss));
  ss.ss_sp = md_mmap(size);
  ss.ss_size = size;
  if (ss.ss_sp && sigaltstack(&ss, NULL) != 0)
    md_munmap(ss.ss_sp, size);
}

void md_crash_init(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = on_fatal;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < FATAL_COUNT; i++) {
    struct sigaction old;
    if (sigaction(fatal[i].sig, NULL, &old) != 0 ||
        (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
      continue; /* someone else handles it */
    if (sigaction(fatal[i].sig, &sa, NULL) != 0)
      continue;
    /* The C library's restorer, where a handler the kernel called returns. */
    if (sigaction(fatal[i].sig, NULL, &old) == 0 && !restorer)
      restorer = old.sa_restorer;
    if (fatal[i].sig == SIGSEGV)
      add_alternate_stack();
  }
}
