/* mmap_bench.c - a mapping-heavy loop, for what track_mmap costs: each
 * thread keeps a window of 64 mappings and, ITERS times, replaces a random
 * one: munmap, mmap of 1 to 16 pages, a write to its first page; one in 8
 * gets an mprotect of its first page, one in 16 an mremap that grows it.
 * Plain C, no mdebug API: built natively and with mdebug-clang alike.
 *
 * usage: mmap_bench ITERS [THREADS]   (default 1 thread)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define WINDOW 64
#define PAGE 4096

static long iters;

static void *run(void *arg) {
  unsigned seed = (unsigned)(long)arg * 2654435761u + 1;
  char *maps[WINDOW] = {0};
  size_t sizes[WINDOW] = {0};
  for (long i = 0; i < iters; i++) {
    seed = seed * 1103515245u + 12345u;
    unsigned k = (seed >> 8) % WINDOW;
    if (maps[k])
      munmap(maps[k], sizes[k]);
    size_t n = (size_t)(1 + (seed >> 16) % 16) * PAGE;
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      perror("mmap");
      exit(1);
    }
    p[0] = (char)i;
    if ((seed >> 4) % 16 == 0) {
      char *q = mremap(p, n, n + 2 * PAGE, MREMAP_MAYMOVE);
      if (q != MAP_FAILED) {
        p = q;
        n += 2 * PAGE;
      }
    } else if ((seed >> 4) % 8 == 1 && n > PAGE) {
      mprotect(p, PAGE, PROT_READ);
    }
    maps[k] = p;
    sizes[k] = n;
  }
  for (int k = 0; k < WINDOW; k++)
    if (maps[k])
      munmap(maps[k], sizes[k]);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: mmap_bench ITERS [THREADS]\n");
    return 2;
  }
  iters = atol(argv[1]);
  int threads = argc > 2 ? atoi(argv[2]) : 1;
  pthread_t t[64];
  if (threads < 1 || threads > 64)
    return 2;
  for (int i = 0; i < threads; i++)
    pthread_create(&t[i], NULL, run, (void *)(long)i);
  for (int i = 0; i < threads; i++)
    pthread_join(t[i], NULL);
  return 0;
}
