// Proves: 4 threads doing 100k mixed-size malloc/free each, plus blocks
// handed to and freed by another thread, get no false report and no lost
// block; a single real double free after them is reported exactly once.
// RUN: %mdebug_clang -g -O1 %s -o %t -pthread
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { THREADS = 4, ITERATIONS = 100000, KEEP = 64, SHARED = 1024 };

struct header {
  size_t size;
  long owner;
};

/* Blocks in transit: pushed by one thread, popped and freed by any. */
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct header *shared[SHARED];
static size_t shared_count;
static long bad_blocks, foreign_frees;

static uint32_t next_random(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* Each block records its size and owner and is filled with a byte derived
 * from the size, so a block handed out twice or overwritten is noticed. */
static struct header *make(size_t size, long owner) {
  struct header *h = malloc(size);
  memset(h, (int)(size & 0xff), size);
  h->size = size;
  h->owner = owner;
  return h;
}

static void release(struct header *h, long self) {
  const unsigned char *bytes = (const unsigned char *)h;
  for (size_t i = sizeof *h; i < h->size; i++)
    if (bytes[i] != (unsigned char)(h->size & 0xff)) {
      __atomic_add_fetch(&bad_blocks, 1, __ATOMIC_RELAXED);
      break;
    }
  if (self && h->owner != self)
    __atomic_add_fetch(&foreign_frees, 1, __ATOMIC_RELAXED);
  free(h);
}

static pthread_barrier_t start;

/* Odd threads also produce blocks for the others, even threads also
 * consume and free them. */
static void *worker(void *arg) {
  long self = (long)(intptr_t)arg;
  uint32_t seed = (uint32_t)self * 2654435761u + 1;
  struct header *kept[KEEP] = {0};
  pthread_barrier_wait(&start);
  for (int i = 0; i < ITERATIONS; i++) {
    uint32_t r = next_random(&seed);
    size_t size = sizeof(struct header) + (r % 4 == 0 ? r % 4096 : r % 128);
    int slot = (int)((r >> 8) % KEEP);
    if (kept[slot])
      release(kept[slot], self);
    kept[slot] = make(size, self);
    if (i % 4 != 0)
      continue;
    struct header *give = self % 2 ? make(size, self) : NULL, *take = NULL;
    pthread_mutex_lock(&shared_lock);
    if (give && shared_count < SHARED)
      shared[shared_count++] = give, give = NULL;
    if (self % 2 == 0 && shared_count)
      take = shared[--shared_count];
    pthread_mutex_unlock(&shared_lock);
    if (give) /* the queue was full */
      release(give, self);
    if (take)
      release(take, self);
  }
  for (int k = 0; k < KEEP; k++)
    if (kept[k])
      release(kept[k], self);
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t threads[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  for (long t = 0; t < THREADS; t++)
    pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)(t + 1));
  for (int t = 0; t < THREADS; t++)
    pthread_join(threads[t], NULL);
  while (shared_count)
    release(shared[--shared_count], 0);
  fprintf(stderr, "done: %ld bad blocks, cross-thread frees %s\n", bad_blocks,
          foreign_frees >= 1000 ? "seen" : "MISSING");
  if (argc == 1) {
    char *p = malloc(3);
    free(p);
    free(p);
  }
  return bad_blocks != 0;
}
// CHECK-NOT: mdebug
// CHECK: done: 0 bad blocks, cross-thread frees seen
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 3 DOUBLE FREE (free)
// CHECK-NEXT:   allocated by malloc at {{.*}}stress.c:103:15 (main)
// CHECK-NEXT:   freed by free at {{.*}}stress.c:104:5 (main)
// CHECK-NEXT:   freed again by free at {{.*}}stress.c:105:5 (main)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
// CLEAN: done: 0 bad blocks, cross-thread frees seen
// CLEAN-NOT: mdebug
