// Proves: large blocks allocated, used and freed by several threads at once,
// their spans released by the quarantine and reused for blocks of other
// sizes and alignments (each thread's cache of checked accesses still
// holding answers for the blocks that were there), are checked without a
// false report: every access inside a block is silent. An access past the
// end of a reused span's block is still reported, naming that block.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g -pthread %s -o %t
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %not %t 2>&1 | %FileCheck %s
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 200

__attribute__((noinline)) int peek(const char *p, size_t i) { return p[i]; }

static void *work(void *arg) {
  unsigned seed = (unsigned)(size_t)arg;
  int sum = 0;
  for (int i = 0; i < ROUNDS; i++) {
    size_t n = 140000 + (size_t)(rand_r(&seed) % (1 << 20));
    char *p = (i & 1) ? malloc(n) : aligned_alloc(4096, n & ~(size_t)4095);
    if (!(i & 1))
      n &= ~(size_t)4095;
    memset(p, i, n);
    sum += peek(p, 0) + peek(p, n - 1) + peek(p, n / 2);
    free(p);
  }
  return (void *)(size_t)sum;
}

int main(int argc, char **argv) {
  pthread_t t[THREADS];
  for (size_t i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, work, (void *)(i + 1));
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  char *last = calloc(1, 299992); /* its span may hold old bytes */
  int r = peek(last, argc > 1 ? 299991 : 299992);
  free(last);
  return r;
}
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 299992 READ PAST ITS END
// CHECK-NEXT:   read of size 1 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// CHECK-NEXT:   read at {{.*}}large_threads.c:17:70 (peek)
// CHECK-NEXT:   allocated by calloc at {{.*}}large_threads.c:40:16 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 heap buffer overflow)
// CLEAN-NOT: mdebug
