// Proves: each thread's cache of lookups, which starts as zero pages, is
// safe and right from its first use: a new thread that looks up a null
// pointer (a loop over p that runs, but never reads p: the lookup of p is
// hoisted before it) does not crash on the cache's first entry, the only
// one a null pointer falls in; and a thread that takes over the cache of a
// thread that exited does not take the dead thread's entries for answers
// once their blocks are freed: it reports the read of a block the dead
// thread had read, freed since, as a use after free. The clean twin reads
// the block before it is freed.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g -pthread %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long *block;
static volatile long sink;

/* A loop with a preheader (the entry block): p's lookup is hoisted there. */
__attribute__((noinline)) long pick(const long *p, const char *use, long n) {
  long s = 0, i = 0;
  do {
    if (use[i])
      s += p[i];
  } while (++i < n);
  return s;
}

__attribute__((noinline)) long first(const long *v) { return v[0]; }

/* The first thread: fills its cache, then looks a null pointer up. */
static void *reader(void *arg) {
  sink = first(block);
  char none[64] = {0};
  sink = pick(NULL, none, sizeof none);
  fputs("null lookup survived\n", stderr);
  return arg;
}

/* The second, started once the first exited: its cache is the first's. */
static void *late_reader(void *arg) {
  sink = first(block);
  return arg;
}

static void run(void *(*fn)(void *)) {
  pthread_t t;
  pthread_create(&t, NULL, fn, NULL);
  pthread_join(t, NULL);
}

int main(int argc, char **argv) {
  int clean = argc > 1;
  block = calloc(4, sizeof(long));
  run(reader);
  if (clean)
    run(late_reader);
  free(block);
  if (!clean)
    run(late_reader);
  return 0;
}
// CHECK: null lookup survived
// CHECK: mdebug: ERROR: use after free in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 USED AFTER FREE (read)
// CHECK-NEXT:   read of size 8 at 0x{{[0-9a-f]+}}: 0 bytes inside the freed block
// CHECK-NEXT:   read at {{.*}}thread_caches.c:30:{{[0-9]+}} (first)
// CHECK-NEXT:   allocated by calloc at {{.*}}thread_caches.c:55:11 (main)
// CHECK-NEXT:   freed by free at {{.*}}thread_caches.c:59:3 (main)
// CLEAN: null lookup survived
// CLEAN-NOT: mdebug
