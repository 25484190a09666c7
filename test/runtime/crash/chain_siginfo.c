// Proves: when the program's own SIGSEGV handler declines the fault and
// chains to the handler it replaced with the signal's three arguments,
// mdebug's report of the fault follows (here a use after free of a large
// block), then the summary, and the process dies of SIGSEGV. A handler
// that passes the signal number alone gets the summary only (see
// program_handlers.c); the run without the bug prints nothing.
// RUN: %mdebug_clang -g -O0 %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t bug 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | count 0
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct sigaction previous;

static void decline(int sig, siginfo_t *info, void *ctx) {
  static const char msg[] = "the program's handler declines\n";
  write(2, msg, sizeof(msg) - 1);
  if (previous.sa_flags & SA_SIGINFO) {
    previous.sa_sigaction(sig, info, ctx);
  } else { /* no handler to chain to: die of the fault */
    signal(sig, SIG_DFL);
  }
}

int main(int argc, char **argv) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = decline;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous);
  char *big = malloc(4 << 20); /* more than free_track keeps: inaccessible */
  free(big);
  if (argc > 1)
    big[10] = 1;
  return 0;
}
// CHECK: the program's handler declines
// CHECK-NEXT: ***
// CHECK-NEXT: mdebug: ERROR: use after free in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 4194304 USED AFTER FREE (write)
// CHECK-NEXT:   write at 0x{{[0-9a-f]+}}: 10 bytes inside the freed block
// CHECK-NEXT:   allocated by malloc at {{.*}}chain_siginfo.c:34:15 (main)
// CHECK-NEXT:   freed by free at {{.*}}chain_siginfo.c:35:3 (main)
// CHECK-NEXT:   write by the instruction at pc 0x{{[0-9a-f]+}} in main{{[+ ].*}} ({{.*}})
// CHECK: mdebug: SUMMARY: 1 error (1 use after free), then SIGSEGV (segmentation fault); leaks at exit not checked
// CHECK-NEXT: killed by signal 11
