// Proves: page_guard=N guards about 1 in N blocks (of 20000 blocks with
// N=100: between 100 and 400, by a pseudo-random countdown of mean N), and
// the size options choose which: page_guard_min_size / page_guard_max_size
// leave blocks out of the range unguarded, and with page_guard=N the next
// block in range after a sampled one is the one guarded. Every option has
// its bad values refused with a message.
// RUN: %mdebug_clang -fno-mdebug-check-lib-calls -g -O0 %s -o %t
// RUN: env MDEBUG_OPTIONS=page_guard=100 %t 2>&1 | %FileCheck %s --check-prefix=RATE
// RUN: env "MDEBUG_OPTIONS=page_guard page_guard_min_size=100" %t 2>&1 | %FileCheck %s --check-prefix=MIN
// RUN: env "MDEBUG_OPTIONS=page_guard page_guard_max_size=100" %t 2>&1 | %FileCheck %s --check-prefix=MAX
// RUN: env "MDEBUG_OPTIONS=page_guard=10 page_guard_min_size=1000" %t 2>&1 | %FileCheck %s --check-prefix=RARE
// RUN: env MDEBUG_OPTIONS=page_guard=0 %t 2>&1 | %FileCheck %s --check-prefix=ZERO
// RUN: env MDEBUG_OPTIONS=page_guard_align=8192 %t 2>&1 | %FileCheck %s --check-prefix=ALIGN
// RUN: env MDEBUG_OPTIONS=page_guard_front=1 %t 2>&1 | %FileCheck %s --check-prefix=FLAG
// The default guards nothing.
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=OFF
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int pipe_fd[2];

static int readable(const void *p) {
  char c;
  if (write(pipe_fd[1], p, 1) != 1)
    return 0;
  read(pipe_fd[0], &c, 1);
  return 1;
}

/* Guarded: the byte after its 16-aligned end cannot be read. */
static int guarded(const char *p, size_t n) {
  return !readable(p + ((n + 15) & ~(size_t)15));
}

static void *blocks[20000];

int main(void) {
  pipe(pipe_fd);
  size_t small = 0, big = 0, n = sizeof(blocks) / sizeof(blocks[0]);
  for (size_t i = 0; i < n; i++)
    small += guarded(blocks[i] = malloc(48), 48);
  for (size_t i = 0; i < n; i++)
    free(blocks[i]);
  int rate_ok = small >= 100 && small <= 400;
  /* 100 small blocks, then one of 2000 bytes, ten times over. */
  for (int round = 0; round < 10; round++) {
    for (int i = 0; i < 100; i++)
      small += guarded(blocks[i] = malloc(48), 48);
    char *b = malloc(2000);
    big += guarded(b, 2000);
    for (int i = 0; i < 100; i++)
      free(blocks[i]);
    free(b);
  }
  printf("rate within 100..400: %d\n", rate_ok);
  printf("small guarded: %zu, big guarded: %zu of 10\n", small, big);
  return 0;
}
// RATE: rate within 100..400: 1
// MIN: small guarded: 0, big guarded: 10 of 10
// MAX: small guarded: 21000, big guarded: 0 of 10
// RARE: small guarded: 0, big guarded: 10 of 10
// ZERO: mdebug: MDEBUG_OPTIONS: bad value for option 'page_guard', value must be >= 1: 0; ignoring MDEBUG_OPTIONS (running with the defaults)
// ALIGN: mdebug: MDEBUG_OPTIONS: bad value for option 'page_guard_align', value must be <= 4096: 8192; ignoring MDEBUG_OPTIONS (running with the defaults)
// FLAG: mdebug: MDEBUG_OPTIONS: value set for option 'page_guard_front' which does not take a value; ignoring MDEBUG_OPTIONS (running with the defaults)
// OFF: small guarded: 0, big guarded: 0 of 10
// (-fno-mdebug-check-lib-calls: the probes of guard pages through write() are not checked at the call.)
