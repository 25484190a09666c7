/* alloc_bench.c - an allocation-heavy workload for comparing a native build
 * with an mdebug build (see run.sh and README.md).
 *
 * Each thread keeps a working set of live blocks and, per iteration, replaces
 * one slot chosen by a fixed-seed xorshift: frees the block there (after
 * checking the bytes it wrote) and allocates a new one of a random size,
 * writing its first bytes. Sizes are mostly small (16..256 bytes), some up to
 * 4 KiB, a few 64 KiB.
 *
 *   alloc_bench single   ITERS   one thread
 *   alloc_bench threads2 ITERS   two independent threads, ITERS each
 *   alloc_bench prodcons ITERS   one thread allocates; every block it drops
 *                                from its working set goes through a bounded
 *                                lock-free ring to a second thread, which
 *                                frees it (cross-thread frees)
 *   alloc_bench large_churn ITERS  one thread allocates a 200 KB block, fills
 *                                it, reads it back and frees it, ITERS times
 *                                (what snappy's tests do through std::string
 *                                and their working memory; growing buffers,
 *                                I/O buffers and compressor windows too):
 *                                the cost of a large block's pages, fresh or
 *                                reused
 *
 * A correct program: every block is freed before exit, so an mdebug build
 * reports nothing. Prints one line (mode, iterations, checksum) to stdout;
 * exits 1 if a block does not hold what was written to it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKING_SET 8192 /* live blocks per allocating thread */
#define TOUCH 64         /* bytes written at the start of each block */
#define RING_SIZE 1024   /* prodcons ring capacity, a power of two */

static uint64_t xorshift64(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

/* 90% 16..256 bytes, 9.5% 257..4096, 0.5% exactly 64 KiB. */
static size_t pick_size(uint64_t r) {
  unsigned bucket = (unsigned)(r % 1000);
  uint64_t v = r >> 10;
  if (bucket < 900)
    return 16 + (size_t)(v % 241);
  if (bucket < 995)
    return 257 + (size_t)(v % (4096 - 257 + 1));
  return 64 * 1024;
}

struct block {
  unsigned char *p;
  size_t size;
};

static int failed;

static unsigned char *new_block(size_t size, unsigned char tag) {
  unsigned char *p = malloc(size);
  if (!p) {
    perror("alloc_bench: malloc");
    exit(1);
  }
  memset(p, tag, size < TOUCH ? size : TOUCH);
  return p;
}

/* Reads back what new_block wrote; returns a value for the checksum. */
static uint64_t check_block(const struct block *b) {
  size_t n = b->size < TOUCH ? b->size : TOUCH;
  if (b->p[0] != b->p[n - 1] || b->p[0] != (unsigned char)b->size) {
    fprintf(stderr, "alloc_bench: block %p of size %zu was corrupted\n",
            (void *)b->p, b->size);
    failed = 1;
  }
  return b->p[0] + b->size;
}

/* ---- the bounded single-producer single-consumer ring ------------------- */

/* Waiting: spin briefly, then give the CPU away (sched_yield is a system
 * call, too dear to make on every empty or full check). */
static void backoff(unsigned *spins) {
  if (++*spins < 256) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  } else {
    *spins = 0;
    sched_yield();
  }
}

/* Each side publishes its index once per BATCH blocks (and before it
 * waits), so the two cores pass the shared cache lines back and forth once
 * a batch, not once a block: the mode then measures cross-thread frees, not
 * the hand-off. */
#define BATCH 64

struct ring {
  _Alignas(64) _Atomic size_t head; /* next slot the producer writes */
  _Alignas(64) _Atomic size_t tail; /* next slot the consumer reads */
  _Alignas(64) struct block slots[RING_SIZE];
};

struct ring_end {   /* one side's own view of the ring */
  struct ring *ring;
  size_t next;      /* the slot this side uses next */
  size_t published; /* what the other side has been told */
  size_t other;     /* the other side's index, as last read */
};

static void publish(_Atomic size_t *index, struct ring_end *e) {
  atomic_store_explicit(index, e->next, memory_order_release);
  e->published = e->next;
}

static void ring_push(struct ring_end *e, struct block b) {
  struct ring *r = e->ring;
  unsigned spins = 0;
  while (e->next - e->other == RING_SIZE) { /* full, as far as we know */
    if (e->published != e->next)
      publish(&r->head, e);
    e->other = atomic_load_explicit(&r->tail, memory_order_acquire);
    if (e->next - e->other == RING_SIZE)
      backoff(&spins);
  }
  r->slots[e->next & (RING_SIZE - 1)] = b;
  e->next++;
  if (e->next - e->published >= BATCH || !b.p) /* !b.p: end of stream */
    publish(&r->head, e);
}

static struct block ring_pop(struct ring_end *e) {
  struct ring *r = e->ring;
  unsigned spins = 0;
  while (e->next == e->other) { /* empty, as far as we know */
    if (e->published != e->next)
      publish(&r->tail, e);
    e->other = atomic_load_explicit(&r->head, memory_order_acquire);
    if (e->next == e->other)
      backoff(&spins);
  }
  struct block b = r->slots[e->next & (RING_SIZE - 1)];
  e->next++;
  if (e->next - e->published >= BATCH)
    publish(&r->tail, e);
  return b;
}

/* ---- the workload ------------------------------------------------------- */

struct worker {
  uint64_t seed;
  long iters;
  struct ring_end *out; /* NULL: free dropped blocks here; else hand them over */
  uint64_t checksum;
  pthread_t thread;
};

static void drop(struct worker *w, struct block b) {
  if (w->out) {
    ring_push(w->out, b);
  } else {
    w->checksum += check_block(&b);
    free(b.p);
  }
}

static void *run_worker(void *arg) {
  struct worker *w = arg;
  struct block *set = calloc(WORKING_SET, sizeof(*set));
  if (!set) {
    perror("alloc_bench: calloc");
    exit(1);
  }
  for (long i = 0; i < w->iters; i++) {
    uint64_t r = xorshift64(&w->seed);
    struct block *b = &set[(r >> 40) % WORKING_SET];
    if (b->p)
      drop(w, *b);
    b->size = pick_size(xorshift64(&w->seed));
    b->p = new_block(b->size, (unsigned char)b->size);
  }
  for (size_t i = 0; i < WORKING_SET; i++)
    if (set[i].p)
      drop(w, set[i]);
  if (w->out)
    ring_push(w->out, (struct block){NULL, 0}); /* end of stream */
  free(set);
  return NULL;
}

static void *run_consumer(void *arg) {
  struct worker *w = arg;
  for (;;) {
    struct block b = ring_pop(w->out);
    if (!b.p)
      return NULL;
    w->checksum += check_block(&b);
    free(b.p);
  }
}

/* ---- large blocks ------------------------------------------------------- */

#define LARGE_CHURN_SIZE (200u * 1000u) /* past the 128 KiB of every
                                            allocator's small blocks */

/* The block goes through an opaque call, so the compiler can neither drop
 * the malloc/free pair nor the fill. */
static uint64_t (*volatile read_back)(const unsigned char *, size_t);
static uint64_t sum_strided(const unsigned char *p, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; i += 4096)
    s += p[i];
  return s + p[n - 1];
}

static uint64_t large_churn(long iters) {
  uint64_t checksum = 0;
  read_back = sum_strided;
  for (long i = 0; i < iters; i++) {
    unsigned char *p = malloc(LARGE_CHURN_SIZE);
    if (!p) {
      perror("alloc_bench: malloc");
      exit(1);
    }
    memset(p, (int)(i & 0xff), LARGE_CHURN_SIZE);
    uint64_t s = read_back(p, LARGE_CHURN_SIZE);
    if (s != (uint64_t)(i & 0xff) * ((LARGE_CHURN_SIZE + 4095) / 4096 + 1)) {
      fprintf(stderr, "alloc_bench: large block %p does not hold its fill\n",
              (void *)p);
      failed = 1;
    }
    checksum += s;
    free(p);
  }
  return checksum;
}

static void start(struct worker *w, void *(*fn)(void *)) {
  int err = pthread_create(&w->thread, NULL, fn, w);
  if (err) {
    fprintf(stderr, "alloc_bench: pthread_create: %s\n", strerror(err));
    exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc != 3 || atol(argv[2]) <= 0) {
    fprintf(stderr, "usage: %s single|threads2|prodcons|large_churn ITERATIONS\n",
            argv[0]);
    return 2;
  }
  const char *mode = argv[1];
  long iters = atol(argv[2]);
  struct worker w[2] = {{.seed = 0x9e3779b97f4a7c15ull, .iters = iters},
                        {.seed = 0xd1b54a32d192ed03ull, .iters = iters}};
  struct ring_end producer = {0}, consumer = {0};
  uint64_t checksum;
  if (strcmp(mode, "single") == 0) {
    run_worker(&w[0]);
    checksum = w[0].checksum;
  } else if (strcmp(mode, "threads2") == 0) {
    start(&w[0], run_worker);
    start(&w[1], run_worker);
    pthread_join(w[0].thread, NULL);
    pthread_join(w[1].thread, NULL);
    checksum = w[0].checksum + w[1].checksum;
  } else if (strcmp(mode, "prodcons") == 0) {
    struct ring *ring = aligned_alloc(64, sizeof(*ring));
    if (!ring) {
      perror("alloc_bench: aligned_alloc");
      return 1;
    }
    atomic_init(&ring->head, 0);
    atomic_init(&ring->tail, 0);
    producer.ring = consumer.ring = ring;
    w[0].out = &producer;
    w[1].out = &consumer;
    start(&w[1], run_consumer);
    start(&w[0], run_worker);
    pthread_join(w[0].thread, NULL);
    pthread_join(w[1].thread, NULL);
    free(ring);
    checksum = w[1].checksum;
  } else if (strcmp(mode, "large_churn") == 0) {
    checksum = large_churn(iters);
  } else {
    fprintf(stderr, "alloc_bench: unknown mode '%s'\n", mode);
    return 2;
  }
  printf("alloc_bench %s iterations=%ld checksum=%llu\n", mode, iters,
         (unsigned long long)checksum);
  return failed;
}
