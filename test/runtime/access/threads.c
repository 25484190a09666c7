// Proves: a block freed by one thread and read afterwards by another (the
// free and the read ordered by a mutex, as in a real program) is reported
// at the read, in the reading thread, with the free's site in the other
// thread's function. The clean twin reads before the free.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g -pthread %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static long *shared;
static int freed;

static void *release(void *arg) {
  pthread_mutex_lock(&lock);
  free(shared);
  freed = 1;
  pthread_cond_signal(&done);
  pthread_mutex_unlock(&lock);
  return arg;
}

__attribute__((noinline)) long first(const long *v) { return v[0]; }

int main(int argc, char **argv) {
  shared = calloc(4, sizeof(long));
  long v = argc > 1 ? first(shared) : 0;
  pthread_t t;
  pthread_create(&t, NULL, release, NULL);
  pthread_mutex_lock(&lock);
  while (!freed)
    pthread_cond_wait(&done, &lock);
  pthread_mutex_unlock(&lock);
  if (argc == 1)
    v = first(shared);
  pthread_join(t, NULL);
  return (int)v;
}
// CHECK: mdebug: ERROR: use after free in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 USED AFTER FREE (read)
// CHECK-NEXT:   read of size 8 at 0x{{[0-9a-f]+}}: 0 bytes inside the freed block
// CHECK-NEXT:   read at {{.*}}threads.c:25:{{[0-9]+}} (first)
// CHECK-NEXT:   allocated by calloc at {{.*}}threads.c:28:12 (main)
// CHECK-NEXT:   freed by free at {{.*}}threads.c:18:3 (release)
// CLEAN-NOT: mdebug
