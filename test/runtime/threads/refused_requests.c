// Proves: requests refused on several threads at once are each reported
// whole (reports never interleave: every header is followed by its own
// lines) and counted exactly in the summary (4 threads x 50 refusals), while
// the threads' other allocations go on; with allocator_may_return_null the
// same run is silent.
// RUN: %mdebug_clang -g -O1 %s -o %t -lpthread
// RUN: %not %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// Every header's next four lines are its own (sorted and counted).
// RUN: grep -A4 "ERROR: calloc overflow" %t.out | grep -v -e "^--$" -e "ERROR:" | env LC_ALL=C sort | uniq -c | %FileCheck %s --check-prefix=WHOLE
// RUN: env MDEBUG_OPTIONS=allocator_may_return_null %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void *work(void *arg) {
  (void)arg;
  int nulls = 0;
  for (int i = 0; i < 50; i++) {
    void *keep = malloc(32 + i);
    void *p = calloc(SIZE_MAX / 2, 3);
    nulls += p == NULL;
    free(keep);
  }
  return (void *)(intptr_t)nulls;
}

int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, work, NULL);
  int nulls = 0;
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(t[i], &r);
    nulls += (int)(intptr_t)r;
  }
  fprintf(stderr, "NULL returned %d times\n", nulls);
  return 0;
}
// CHECK-COUNT-200: mdebug: ERROR: calloc overflow in {{.*}}
// CHECK: NULL returned 200 times
// CHECK-NEXT: mdebug: SUMMARY: 200 errors (200 calloc overflow), 0 bytes leaked in 0 blocks
// WHOLE:      200   calloc returns NULL, errno ENOMEM
// WHOLE-NEXT: 200   count * size (0x7fffffffffffffff * 0x3) cannot be represented in size_t
// WHOLE-NEXT: 200   requested by calloc at {{.*}}refused_requests.c:22:15 (work)
// WHOLE-NEXT: 200 +++ ALLOCATION REQUEST OF 9223372036854775807 * 3 BYTES OVERFLOWS (calloc)
// WHOLE-NOT: {{.}}
// CLEAN-NOT: mdebug
// CLEAN: NULL returned 200 times
// CLEAN-NOT: mdebug
