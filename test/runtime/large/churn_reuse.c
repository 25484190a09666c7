// Proves: a large block allocated, filled and freed in a loop reuses its
// span's pages (the secondary's cache of freed spans) instead of mapping
// and faulting in fresh ones each time: under a page fault per iteration
// where a fresh span costs one per page (49 for 200 KB), with the defaults,
// with free_track off and with every check off. The quarantine still holds
// the freed block (defaults): a write to it after free is reported as a use
// after free when it leaves, and its bytes are never handed out before.
// calloc of a reused span gives zeros, fill_on_alloc fills it, and a block
// larger than the quarantine keeps (4 x free_track_bytes: 1 MiB) still has
// its pages made inaccessible while quarantined (a read after free faults,
// reported).
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %t churn 2>&1 | %FileCheck %s --check-prefix=CHURN --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS="none verify_pointers fill_on_free=64 track_mmap leak_check" %t churn 2>&1 | %FileCheck %s --check-prefix=CHURN --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS=none %t churn 2>&1 | %FileCheck %s --check-prefix=CHURN --implicit-check-not=mdebug
// RUN: %t calloc 2>&1 | %FileCheck %s --check-prefix=CALLOC --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS="none verify_pointers fill_on_free=64 track_mmap leak_check" %t calloc 2>&1 | %FileCheck %s --check-prefix=CALLOC --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS=fill_on_alloc %t fill 2>&1 | %FileCheck %s --check-prefix=FILL --implicit-check-not=mdebug
// RUN: %not %t write_after_free 2>&1 | %FileCheck %s --check-prefix=UAF
// RUN: %python %S/../../Inputs/exit_status.py %t read_big_after_free 2>&1 | %FileCheck %s --check-prefix=BIG
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define SIZE (200 * 1000)
#define ROUNDS 2000

static long faults(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}

/* Pushes what the quarantine holds out of it (frees of other blocks). */
static void churn(int rounds) {
  for (int i = 0; i < rounds; i++) {
    char *volatile q = malloc(SIZE);
    memset(q, 0x33, SIZE);
    free(q);
  }
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "clean";
  if (!strcmp(m, "churn")) {
    churn(50); /* the cache and the quarantine warm up */
    long before = faults();
    churn(ROUNDS);
    long per100 = (faults() - before) * 100 / ROUNDS;
    printf("page faults per 100 iterations: %s\n",
           per100 < 100 ? "fewer than 100" : "100 or more");
  } else if (!strcmp(m, "calloc") || !strcmp(m, "fill")) {
    char *p = malloc(SIZE);
    memset(p, 0x55, SIZE);
    free(p);
    churn(600);
    int bad = 0;
    for (int i = 0; i < 50; i++) {
      unsigned char *q = !strcmp(m, "calloc") ? calloc(1, SIZE) : malloc(SIZE);
      unsigned char want = !strcmp(m, "calloc") ? 0 : 0xeb;
      for (size_t k = 0; k < SIZE; k++)
        bad += q[k] != want;
      memset(q, 0x55, SIZE);
      free(q);
    }
    printf("%s: %d wrong bytes\n", m, bad);
  } else if (!strcmp(m, "write_after_free")) {
    char *p = malloc(SIZE);
    free(p);
    p[10] = 1; /* a stale write into the quarantined block */
    churn(600);
  } else if (!strcmp(m, "read_big_after_free")) {
    char *p = malloc(4 << 20); /* more than the quarantine keeps (1 MiB) */
    free(p);
    return p[4096];
  } else {
    churn(600);
  }
  return 0;
}
// CHURN: page faults per 100 iterations: fewer than 100
// CALLOC: calloc: 0 wrong bytes
// FILL: fill: 0 wrong bytes
// UAF: mdebug: ERROR: use after free in {{.*}}
// UAF-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} USED AFTER FREE
// UAF-NEXT:   allocation[10] = 0x01 (expected 0xef)
// UAF-NEXT:   the block had size 200000
// UAF-NEXT:   allocated by malloc at {{.*}}churn_reuse.c:70:15 (main)
// UAF-NEXT:   freed by free at {{.*}}churn_reuse.c:71:5 (main)
// UAF-NEXT:   detected when the block left the free_track quarantine
// UAF: mdebug: SUMMARY: 1 error (1 use after free)
// BIG: mdebug: ERROR: use after free in {{.*}}
// BIG-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 4194304 USED AFTER FREE (read)
// BIG: mdebug: SUMMARY: 1 error (1 use after free), then SIGSEGV
// CLEAN-NOT: mdebug
