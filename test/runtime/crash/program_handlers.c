// Proves: the program's own handling of SIGSEGV comes first. A handler the
// program installs replaces mdebug's (mdebug says nothing; the program
// decides the exit status); one that chains to the handler it replaced
// gets mdebug's summary, and the process then dies of the signal; a
// handler installed before mdebug started (an earlier constructor) is left
// in place.
// RUN: %mdebug_clang -g %s -o %t
// RUN: %python %S/../../Inputs/exit_status.py %t own 2>&1 | %FileCheck %s --check-prefix=OWN
// RUN: %python %S/../../Inputs/exit_status.py %t chain 2>&1 | %FileCheck %s --check-prefix=CHAIN
// RUN: env EARLY_HANDLER=1 %python %S/../../Inputs/exit_status.py %t none 2>&1 | %FileCheck %s --check-prefix=EARLY
// Clean case: no crash, nothing from mdebug.
// RUN: %t 2>&1 | count 0
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int *nowhere;
static struct sigaction previous;

static void say(const char *s) { write(2, s, strlen(s)); }

static void exit_3(int sig) {
  (void)sig;
  say("the program's handler\n");
  _exit(3);
}

static void chain(int sig) {
  say("the program's handler, chaining\n");
  previous.sa_handler(sig);
}

static void early(int sig) {
  say("the early handler\n");
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Runs before mdebug's constructor (priority 101). */
__attribute__((constructor(100))) static void install_early(void) {
  if (getenv("EARLY_HANDLER"))
    signal(SIGSEGV, early);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sigemptyset(&sa.sa_mask);
  if (strcmp(argv[1], "own") == 0) {
    sa.sa_handler = exit_3;
    sigaction(SIGSEGV, &sa, NULL);
  } else if (strcmp(argv[1], "chain") == 0) {
    sa.sa_handler = chain;
    sigaction(SIGSEGV, &sa, &previous);
  }
  *nowhere = 1;
  return 0;
}
// OWN: the program's handler
// OWN-NOT: mdebug
// OWN: exit status: 3
// CHAIN: the program's handler, chaining
// CHAIN-NEXT: mdebug: SUMMARY: 0 errors, then SIGSEGV (segmentation fault); leaks at exit not checked
// CHAIN-NEXT: killed by signal 11
// EARLY: the early handler
// EARLY-NOT: mdebug
// EARLY: killed by signal 11
