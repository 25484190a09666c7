// Proves: a program that starts 400 threads in waves, half detached and
// half joined, each mapping, unmapping, allocating and freeing, ends with
// no thread stack and no mapping accounted and nothing reported, once the
// last detached thread is gone; a mapping one detached thread loses is
// reported with its site.
// RUN: %mdebug_clang -g -O1 %s -o %t -lpthread
// RUN: env MDEBUG_OPTIONS=log_allocator_stats_on_exit %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %t lose 2>&1 | %FileCheck %s
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define WAVES 10
#define PER_WAVE 40
#define PAGE 4096

static int lose;
static char *kept[WAVES * PER_WAVE];

static void *worker(void *arg) {
  long i = (long)arg;
  size_t n = (size_t)(1 + i % 3) * PAGE;
  char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  char *b = malloc(100 + i);
  memset(p, 1, n);
  memset(b, 2, 100 + i);
  free(b);
  if (i % 50 == 7)
    kept[i] = p; /* main unmaps it */
  else
    munmap(p, n);
  if (lose && i == 123)
    mmap(NULL, 3 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return NULL;
}

static int tasks(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  for (struct dirent *e; d && (e = readdir(d));)
    n += e->d_name[0] != '.';
  if (d)
    closedir(d);
  return n;
}

int main(int argc, char **argv) {
  lose = argc > 1;
  pthread_attr_t detached;
  pthread_attr_init(&detached);
  pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
  for (int w = 0; w < WAVES; w++) {
    pthread_t t[PER_WAVE];
    for (long k = 0; k < PER_WAVE; k++)
      if (pthread_create(&t[k], k % 2 ? NULL : &detached, worker,
                         (void *)(w * PER_WAVE + k)) != 0)
        abort();
    for (int k = 1; k < PER_WAVE; k += 2)
      pthread_join(t[k], NULL);
  }
  for (int ms = 0; tasks() > 1; ms++) { /* the detached ones, gone */
    if (ms == 20000)
      abort();
    usleep(1000);
  }
  for (int i = 0; i < WAVES * PER_WAVE; i++)
    if (kept[i])
      munmap(kept[i], (size_t)(1 + i % 3) * PAGE);
  memset(kept, 0, sizeof(kept));
  printf("done\n");
  return 0;
}
// CLEAN-NOT: mdebug: ERROR
// CLEAN: done
// CLEAN: mdebug: stats: by category: heap blocks {{[0-9]+}} bytes in {{[0-9]+}} blocks; mappings 0 bytes in 0 mappings; thread stacks 0 bytes in 0 stacks
// CLEAN-NOT: mdebug: ERROR
// CHECK: mdebug: ERROR: memory leak
// CHECK-NEXT: mdebug: 12288 bytes leaked in 1 mapping (1 direct, 0 indirect)
// CHECK-NEXT: Direct leak of 12288 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at {{.*}}thread_heavy.c:38:5 (worker)
