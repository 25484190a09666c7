// Proves: a thread stopped while it runs a signal handler on its alternate
// signal stack (sigaltstack, SA_ONSTACK) still has its own stack scanned: a
// block whose only pointer lives in main's frame is not reported by a leak
// check another thread runs meanwhile. The stopped thread's stack pointer
// is on the alternate stack; the interrupted stack pointer is found in the
// kernel's signal frame there (its ucontext: uc_stack names the alternate
// stack, uc_mcontext the interrupted registers), and both stacks are roots.
// Stopped with ptrace (the default) and with the signal fallback (ptrace
// forbidden), and with a second handler running above the first on that
// stack (its frame's interrupted sp is on the alternate stack: the search
// goes on above it). The control run drops the pointer first: the block is then
// reported, so the check does look at it.
// RUN: %mdebug_clang -g -O0 -I%S/../../Inputs %s -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s
// RUN: %t noptrace 2>&1 | %FileCheck %s
// RUN: %t ptrace nested 2>&1 | %FileCheck %s
// RUN: %t noptrace nested 2>&1 | %FileCheck %s
// RUN: %not %t drop 2>&1 | %FileCheck %s --check-prefix=DROP
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mdebug/mdebug.h>

#include "leak_check_util.h"
#include "no_ptrace.h"

static volatile int in_handler, checked, nested;
static size_t reported;

static void on_usr1(int sig) {
  if (sig == SIGUSR1 && nested) {
    raise(SIGUSR2); /* a second frame on the alternate stack */
    return;
  }
  __atomic_store_n(&in_handler, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&checked, __ATOMIC_ACQUIRE))
    usleep(1000); /* on the alternate stack until the check is done */
}

static void *checker(void *arg) {
  while (!__atomic_load_n(&in_handler, __ATOMIC_ACQUIRE))
    usleep(1000);
  reported = mdebug_check_leaks();
  __atomic_store_n(&checked, 1, __ATOMIC_RELEASE);
  return arg;
}

static __attribute__((noinline)) char *make(void) {
  char *p = malloc(75);
  memset(p, 's', 75);
  return p;
}

int main(int argc, char **argv) {
  int drop = argc > 1 && strcmp(argv[1], "drop") == 0;
  if (argc > 1 && strcmp(argv[1], "noptrace") == 0)
    forbid_ptrace();
  nested = argc > 2 && strcmp(argv[2], "nested") == 0;
  size_t alt_size = 1 << 16;
  stack_t ss = {mmap(NULL, alt_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                0, alt_size};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR1, &sa, NULL);
  sigaction(SIGUSR2, &sa, NULL);
  pthread_t t;
  pthread_create(&t, NULL, checker, NULL);
  char *volatile held = make(); /* in main's frame only (-O0) */
  if (drop)
    held = NULL;
  scrub_stack();
  raise(SIGUSR1);
  pthread_join(t, NULL);
  fprintf(stderr, "check reported %zu\n", reported);
  free(held);
  stack_t off = {NULL, SS_DISABLE, 0};
  sigaltstack(&off, NULL);
  munmap(ss.ss_sp, alt_size);
  return 0;
}
// CHECK-NOT: Direct leak
// CHECK: check reported 0
// CHECK-NOT: mdebug: SUMMARY
// DROP: Direct leak of 75 bytes in 1 block:
// DROP-NEXT: allocated by malloc at {{.*}}reach_stack_under_sigaltstack.c:55:13 (make)
// DROP: check reported 1
// CLEAN-NOT: mdebug
