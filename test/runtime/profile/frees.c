// Proves: the free of a tracked block is recorded (F: where it was
// allocated, with its stack and time, where and when it was freed, with the
// free's stack and thread), also when another thread frees it, and
// mdebug-report's deallocation points group them by allocation point and
// free site; a realloc is a free and an allocation. The clean case: an
// untracked block's free leaves no record (sample_rate=1 with
// track_min_size above its size).
// RUN: %mdebug_clang -g %s -o %t -lpthread
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/prof" %t 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %python %S/Inputs/profile_frees.py %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=FILE
// RUN: %mdebug_report --report=dealloc-points --function=make %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=POINTS
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 track_min_size=1000 profile_prefix=%t.d/none" %t 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: grep -q '^A ' %t.d/none.*.mdprof
// RUN: %not grep -q '^F ' %t.d/none.*.mdprof
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <stdlib.h>

static char *blocks[20];

static void make(void) {
  for (int i = 0; i < 20; i++)
    blocks[i] = malloc(32);
}

static void *drop_in_thread(void *arg) {
  (void)arg;
  for (int i = 15; i < 20; i++)
    free(blocks[i]);
  return NULL;
}

int main(void) {
  make();
  for (int i = 0; i < 15; i++)
    free(blocks[i]);
  pthread_t t;
  pthread_create(&t, NULL, drop_in_thread, NULL);
  pthread_join(t, NULL);
  char *p = malloc(8);
  p = realloc(p, 64);
  free(p);
  mdebug_snapshot("end");
  return 0;
}
// QUIET-NOT: mdebug
// FILE-DAG: make:24 -> main:37 size 32 x 15 stacks yes/yes same-thread 15
// FILE-DAG: make:24 -> drop_in_thread:30 size 32 x 5 stacks yes/yes same-thread 0
// FILE-DAG: main:41 -> main:42 size 8 x 1 stacks yes/yes same-thread 1
// FILE-DAG: main:42 -> main:43 size 64 x 1 stacks yes/yes same-thread 1
// POINTS: 480 B 15 {{.*}} free at {{.*}}frees.c:37:5 (main) malloc at {{.*}}frees.c:24:17 (make) as char
// POINTS: 160 B 5 {{.*}} free at {{.*}}frees.c:30:5 (drop_in_thread) malloc at {{.*}}frees.c:24:17 (make) as char
