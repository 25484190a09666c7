// Proves: a program that smashes the heap around its blocks cannot make the
// runtime crash or misreport: for 20 seeds, it writes random bytes over the
// 64 bytes before and after live blocks and random words into and around
// freed ones (a write that lands on an inaccessible page faults in the
// program, as it should, and is skipped), then frees everything and exits.
// Every run ends in mdebug's SUMMARY with errors reported and exit status
// 23, under the default options, with every check on, and with wide guards;
// never a crash inside the runtime. The clean run smashes nothing.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %python %S/../../Inputs/seeds.py 1 20 %t | %FileCheck %s --check-prefix=RUNS20 --implicit-check-not=seed
// RUN: env MDEBUG_OPTIONS="guard fill free_track verify_pointers leak_track" %python %S/../../Inputs/seeds.py 1 5 %t | %FileCheck %s --check-prefix=RUNS --implicit-check-not=seed
// RUN: env MDEBUG_OPTIONS="guard=64 free_track=64" %python %S/../../Inputs/seeds.py 1 5 %t | %FileCheck %s --check-prefix=RUNS --implicit-check-not=seed
// RUN: %t 0 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUNS20-COUNT-20: seed {{[0-9]+}}: exit status 23, summary with errors: yes
// RUNS-COUNT-5: seed {{[0-9]+}}: exit status 23, summary with errors: yes
// CLEAN-NOT: mdebug
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { N = 2000 };
static unsigned char *blocks[N];
static size_t sizes[N];
static sigjmp_buf skip;

static void on_fault(int sig) {
  (void)sig;
  siglongjmp(skip, 1);
}

/* One byte written, unless the address faults. */
static void poke(unsigned char *p, unsigned char v) {
  if (sigsetjmp(skip, 1) == 0)
    *(volatile unsigned char *)p = v;
}

int main(int argc, char **argv) {
  unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
  int clean = seed == 0;
  for (int i = 0; i < N; i++) {
    sizes[i] = 1 + rand_r(&seed) % (i % 10 == 0 ? 70000 : 300);
    blocks[i] = malloc(sizes[i]);
    memset(blocks[i], 0x11, sizes[i]);
  }
  if (clean) {
    for (int i = 0; i < N; i++)
      free(blocks[i]);
    return 0;
  }
  struct sigaction sa, old_segv, old_bus;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_fault;
  sigaction(SIGSEGV, &sa, &old_segv);
  sigaction(SIGBUS, &sa, &old_bus);
  /* Free a third, then smash around live and freed blocks alike. */
  for (int i = 0; i < N; i += 3)
    free(blocks[i]);
  for (int i = 0; i < N; i++) {
    if (rand_r(&seed) % 4)
      continue;
    unsigned char *p = blocks[i];
    for (int k = 1; k <= 64; k++) {
      if (rand_r(&seed) % 3 == 0)
        poke(p - k, (unsigned char)rand_r(&seed));
      if (rand_r(&seed) % 3 == 0)
        poke(p + sizes[i] - 1 + k, (unsigned char)rand_r(&seed));
    }
    if (i % 3 == 0) /* a freed one: random words in and around it */
      for (int k = 0; k < 8; k++) {
        long at = (long)(rand_r(&seed) % (sizes[i] + 128)) - 64;
        uint64_t w = ((uint64_t)rand_r(&seed) << 32) | (unsigned)rand_r(&seed);
        for (int b = 0; b < 8; b++)
          poke(p + at + b, (unsigned char)(w >> (8 * b)));
      }
  }
  sigaction(SIGSEGV, &old_segv, NULL);
  sigaction(SIGBUS, &old_bus, NULL);
  for (int i = 0; i < N; i++)
    if (i % 3 != 0)
      free(blocks[i]);
  for (int i = 0; i < N; i += 3) /* double frees, after all that */
    if (rand_r(&seed) % 8 == 0)
      free(blocks[i]);
  return 0;
}
