// Proves: the cache of lookups a thread probes before its first lookup
// (the empty cache, zeros in .bss so that it is never resident) keeps
// access.h's promise from the start: its first entry, the one a probe of
// a null pointer reads, has a readable word that never matches (so the
// probe calls the lookup instead of reading address 0), and the others
// fail the bounds for every pointer. Built without the checks, so that no
// thread takes a cache of its own; then again with them, where a thread's
// first lookups (of null, then of a block) are answered without a report
// (what show() then reads depends on the compiler: its own probe of the
// cache's address may take the thread's cache first, and write an entry
// there, entry 0 when that address is a multiple of 64 KiB).
// RUN: %mdebug_clang -O1 -g %s -o %t -lpthread
// RUN: %t 2>&1 | %FileCheck %s
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g %s -o %t.checked -lpthread
// RUN: %t.checked 2>&1 | %FileCheck %s --check-prefix=CHECKED
// CHECK: main: entry 0 never holds
// CHECK-NEXT: thread: entry 0 never holds
// CHECK-NOT: mdebug
// CHECKED: main: entry 0
// CHECKED: thread: entry 0
// CHECKED-NOT: mdebug
#include <mdebug/access.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

extern __thread struct mdebug_access_entry *__mdebug_access_cache
    __attribute__((tls_model("initial-exec")));

static void show(const char *who) {
  const struct mdebug_access_entry *c = __mdebug_access_cache;
  int zeros = 1;
  for (int i = 1; i < MDEBUG_ACCESS_CACHE_ENTRIES; i++)
    zeros &= c[i].start > c[i].end || c[i].end < 32 * (uint64_t)i;
  if (c[0].word && *c[0].word != c[0].value && zeros)
    printf("%s: entry 0 never holds\n", who);
  else
    printf("%s: entry 0 %s, other entries %s\n", who,
           !c[0].word ? "has no word" : "holds", zeros ? "fail" : "may hold");
}

__attribute__((noinline)) long sum(const long *p, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];
  return s;
}

static void *first(void *arg) {
  show("thread");
  long *q = calloc(4, sizeof *q);
  long s = sum(arg, 0) + sum(q, 4);
  free(q);
  return (void *)s;
}

int main(void) {
  pthread_t t;
  void *r;
  show("main");
  fflush(stdout);
  pthread_create(&t, NULL, first, NULL);
  pthread_join(t, &r);
  return r != NULL;
}
