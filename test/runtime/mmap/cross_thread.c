// Proves: mappings made by one thread and unmapped by another leave the
// table right (8 threads at once, each unmapping what the next one mapped,
// in pieces and whole, with mprotect and mremap in between): at exit
// nothing is left (statistics: 0 mappings) and nothing is reported; a
// mapping one thread makes and loses is reported with its site.
// RUN: %mdebug_clang -g -O1 %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS=log_allocator_stats_on_exit %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %t lose 2>&1 | %FileCheck %s
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define THREADS 8
#define ROUNDS 200
#define PAGE 4096

struct slot {
  pthread_mutex_t lock;
  char *maps[ROUNDS];
  size_t sizes[ROUNDS];
  int made, taken;
};
static struct slot slots[THREADS];
static pthread_barrier_t start;
static int lose;

static void *worker(void *arg) {
  int me = (int)(long)arg, next = (me + 1) % THREADS;
  pthread_barrier_wait(&start);
  for (int i = 0; i < ROUNDS; i++) {
    size_t n = (size_t)(1 + (i * 7 + me) % 9) * PAGE;
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      abort();
    memset(p, me, n);
    if (i % 5 == 0) {
      char *q = mremap(p, n, n + 2 * PAGE, MREMAP_MAYMOVE);
      if (q == MAP_FAILED)
        abort();
      p = q;
      n += 2 * PAGE;
    }
    if (i % 3 == 0 && n > PAGE)
      mprotect(p, PAGE, PROT_READ);
    struct slot *s = &slots[me];
    pthread_mutex_lock(&s->lock);
    s->maps[s->made] = p;
    s->sizes[s->made++] = n;
    pthread_mutex_unlock(&s->lock);
    /* Unmap what the next thread made, when it has. */
    struct slot *o = &slots[next];
    pthread_mutex_lock(&o->lock);
    while (o->taken < o->made) {
      char *q = o->maps[o->taken];
      size_t m = o->sizes[o->taken];
      o->maps[o->taken++] = NULL; /* no stale pointer to a reused address */
      if (m > 2 * PAGE) { /* the middle first, then the pieces */
        munmap(q + PAGE, PAGE);
        munmap(q, PAGE);
        munmap(q + 2 * PAGE, m - 2 * PAGE);
      } else {
        munmap(q, m);
      }
    }
    pthread_mutex_unlock(&o->lock);
  }
  if (lose && me == 3)
    mmap(NULL, 5 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return NULL;
}

int main(int argc, char **argv) {
  lose = argc > 1;
  pthread_t t[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  for (int i = 0; i < THREADS; i++) {
    pthread_mutex_init(&slots[i].lock, NULL);
    pthread_create(&t[i], NULL, worker, (void *)(long)i);
  }
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < THREADS; i++) /* what is left */
    while (slots[i].taken < slots[i].made) {
      munmap(slots[i].maps[slots[i].taken], slots[i].sizes[slots[i].taken]);
      slots[i].maps[slots[i].taken++] = NULL;
    }
  printf("done\n");
  return 0;
}
// CLEAN-NOT: mdebug: ERROR
// CLEAN: done
// CLEAN: mdebug: stats: by category: heap blocks {{[0-9]+}} bytes in {{[0-9]+}} blocks; mappings 0 bytes in 0 mappings; thread stacks 0 bytes in 0 stacks
// CLEAN-NOT: mdebug: ERROR
// CHECK: mdebug: ERROR: memory leak
// CHECK-NEXT: mdebug: 20480 bytes leaked in 1 mapping (1 direct, 0 indirect)
// CHECK-NEXT: Direct leak of 20480 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at {{.*}}cross_thread.c:72:5 (worker)
// CHECK-NEXT: +++ {{.*}} leaked mapping of 20480 bytes at 0x{{[0-9a-f]+}} (r-- private anonymous) (leak 1 of 1)
