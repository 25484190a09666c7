/* unwind.c - the calling thread's stack, by frame pointers: fast enough for
 * every allocation, and safe on any stack. It reads only inside the thread's
 * own stack mapping, follows only aligned, strictly increasing frames, and
 * stops at the first frame that breaks a rule (code built without frame
 * pointers ends the walk early, never faults). The runtime's own frames are
 * left out: the first pc is where the program called in. Each pc is a
 * return address minus one (inside the call instruction), as malloc debug
 * stores frames, so it names the calling line.
 *
 * Never allocates; reads /proc/self/maps with raw system calls, once per
 * thread (and again when the stack pointer leaves the mapping it found).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

extern char __start_mdebug_text[] __attribute__((weak, visibility("hidden")));
extern char __stop_mdebug_text[] __attribute__((weak, visibility("hidden")));

/* The stack mapping holding this thread's stack pointer, cached. */
static __thread uintptr_t stack_lo __attribute__((tls_model("initial-exec")));
static __thread uintptr_t stack_hi __attribute__((tls_model("initial-exec")));

static int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

/* Scans /proc/self/maps ("lo-hi perms ...") for the mapping holding sp. */
static MD_NOINLINE void find_stack(uintptr_t sp) {
  stack_lo = stack_hi = 0;
  int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/maps",
                        O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  char buf[4096];
  uintptr_t lo = 0, hi = 0;
  int field = 0; /* 0: lo, 1: hi, 2: rest of the line */
  for (;;) {
    long n = syscall(SYS_read, fd, buf, sizeof(buf));
    if (n <= 0)
      break;
    for (long i = 0; i < n; i++) {
      char c = buf[i];
      int d = hex_digit(c);
      if (c == '\n') {
        field = 0;
        lo = hi = 0;
      } else if (field == 0) {
        if (c == '-')
          field = 1;
        else if (d >= 0)
          lo = lo << 4 | (uintptr_t)d;
      } else if (field == 1) {
        if (d >= 0) {
          hi = hi << 4 | (uintptr_t)d;
        } else {
          field = 2;
          if (sp >= lo && sp < hi) {
            stack_lo = lo;
            stack_hi = hi;
            syscall(SYS_close, fd);
            return;
          }
        }
      }
    }
  }
  syscall(SYS_close, fd);
}

MD_NOINLINE size_t md_unwind(uintptr_t *pcs, size_t max) {
  uintptr_t fp = (uintptr_t)__builtin_frame_address(0), sp = fp;
  if (MD_UNLIKELY(sp < stack_lo || sp >= stack_hi))
    find_stack(sp);
  uintptr_t hi = stack_hi;
  uintptr_t text_lo = (uintptr_t)__start_mdebug_text;
  uintptr_t text_hi = (uintptr_t)__stop_mdebug_text;
  size_t n = 0;
  bool in_runtime = true;
  while (n < max) {
    if ((fp & 7) != 0 || fp < sp || hi < 16 || fp > hi - 16)
      break;
    uintptr_t next = ((const uintptr_t *)fp)[0];
    uintptr_t pc = ((const uintptr_t *)fp)[1];
    if (pc < 4096)
      break;
    if (!in_runtime || pc < text_lo || pc >= text_hi) {
      in_runtime = false;
      pcs[n++] = pc - 1; /* the call, as malloc debug stores it */
    }
    if (next <= fp)
      break;
    fp = next;
  }
  return n;
}
