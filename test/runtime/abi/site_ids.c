// Proves: a site's origin id, which the runtime keeps in the site's
// descriptor, is one id per site however the site is first reached: 8
// threads make the first calls of 64 sites in a dlopen'ed instrumented
// library (through its inert copy of the runtime) and of 64 sites of the
// program at the same moment, then main calls every site again, and the
// blocks are freed at a library site and at a program site. The profile
// names each site once (S lines) and charges it every call (C lines: 81
// live blocks, their bytes, 81 allocations, 0 frees, the bytes), and the
// library's copy of malloc called directly (a return address, no
// descriptor) is a site of its own. A second id for a site would show as
// the site named twice and its count split; a wrong id as a count under
// another site's name. The clean case: one thread, the same profile.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %mdebug_clang -g -shared -fPIC %S/Inputs/site_ids_lib.c -o %t.d/libsiteids.so
// RUN: %mdebug_clang -g %s -o %t -ldl -lpthread
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/p" %t %t.d/libsiteids.so 8 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: grep '^S ' %t.d/p.*.mdprof | grep -c ' lib_alloc - ' | %FileCheck %s --check-prefix=SITES
// RUN: grep '^S ' %t.d/p.*.mdprof | grep -c ' own_alloc - ' | %FileCheck %s --check-prefix=SITES
// RUN: grep '^C ' %t.d/p.*.mdprof | grep -c ' 81 1296 81 0 1296 ' | %FileCheck %s --check-prefix=SITES
// RUN: grep '^C ' %t.d/p.*.mdprof | grep -c ' 81 3888 81 0 3888 ' | %FileCheck %s --check-prefix=SITES
// RUN: grep '^[SC] ' %t.d/p.*.mdprof | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/one" %t %t.d/libsiteids.so 1 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: grep '^S ' %t.d/one.*.mdprof | grep -c ' lib_alloc - ' | %FileCheck %s --check-prefix=SITES
// RUN: grep '^S ' %t.d/one.*.mdprof | grep -c ' own_alloc - ' | %FileCheck %s --check-prefix=SITES
// RUN: grep '^C ' %t.d/one.*.mdprof | grep -c ' 81 1296 81 0 1296 ' | %FileCheck %s --check-prefix=SITES
// RUN: grep '^C ' %t.d/one.*.mdprof | grep -c ' 81 3888 81 0 3888 ' | %FileCheck %s --check-prefix=SITES
// RUN: grep '^[SC] ' %t.d/one.*.mdprof | %FileCheck %s
#include <dlfcn.h>
#include <mdebug/mdebug.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 8
#define SITES 64
#define CALLS 10 /* per thread and site */
#define BLOCKS (THREADS * CALLS + 1) /* per site, with main's */

static void *(*lib_alloc)(int, size_t);
static void (*lib_free)(void *);
static pthread_barrier_t start;
static int nthreads;
static void *lib_blocks[SITES][BLOCKS], *own_blocks[SITES][BLOCKS];

/* The program's sites, one a case. */
#define SITE(k)                                                                \
  case k:                                                                      \
    return malloc(n);
static void *own_alloc(int site, size_t n) {
  switch (site) {
    SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7)
    SITE(8) SITE(9) SITE(10) SITE(11) SITE(12) SITE(13) SITE(14) SITE(15)
    SITE(16) SITE(17) SITE(18) SITE(19) SITE(20) SITE(21) SITE(22) SITE(23)
    SITE(24) SITE(25) SITE(26) SITE(27) SITE(28) SITE(29) SITE(30) SITE(31)
    SITE(32) SITE(33) SITE(34) SITE(35) SITE(36) SITE(37) SITE(38) SITE(39)
    SITE(40) SITE(41) SITE(42) SITE(43) SITE(44) SITE(45) SITE(46) SITE(47)
    SITE(48) SITE(49) SITE(50) SITE(51) SITE(52) SITE(53) SITE(54) SITE(55)
    SITE(56) SITE(57) SITE(58) SITE(59) SITE(60) SITE(61) SITE(62) SITE(63)
  }
  return NULL;
}

/* Thread t's share; with one thread, it does every share in turn. */
static void *work(void *arg) {
  long t = (long)arg;
  pthread_barrier_wait(&start); /* the sites' first calls race */
  for (long u = t; u < THREADS; u += nthreads)
    for (int i = 0; i < CALLS; i++)
      for (int k = 0; k < SITES; k++) {
        lib_blocks[k][u * CALLS + i] = lib_alloc(k, 16);
        own_blocks[k][u * CALLS + i] = own_alloc(k, 48);
      }
  return NULL;
}

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  lib_alloc = (void *(*)(int, size_t))dlsym(lib, "lib_alloc");
  lib_free = (void (*)(void *))dlsym(lib, "lib_free");
  void *(*copy_malloc)(size_t) = (void *(*)(size_t))dlsym(lib, "malloc");
  void (*copy_free)(void *) = (void (*)(void *))dlsym(lib, "free");
  nthreads = atoi(argv[2]);
  pthread_t threads[THREADS];
  pthread_barrier_init(&start, NULL, (unsigned)nthreads);
  for (long t = 0; t < nthreads; t++)
    pthread_create(&threads[t], NULL, work, (void *)t);
  for (long t = 0; t < nthreads; t++)
    pthread_join(threads[t], NULL);
  for (int k = 0; k < SITES; k++) { /* the same sites, from main */
    lib_blocks[k][BLOCKS - 1] = lib_alloc(k, 16);
    own_blocks[k][BLOCKS - 1] = own_alloc(k, 48);
  }
  void *p = copy_malloc(100);
  mdebug_snapshot("end");
  copy_free(p);
  for (int k = 0; k < SITES; k++)
    for (int i = 0; i < BLOCKS; i++) {
      free(lib_blocks[k][i]);
      lib_free(own_blocks[k][i]);
    }
  return 0;
}
// QUIET-NOT: mdebug
// SITES: {{^}}64{{$}}
// CHECK-DAG: S [[LIB0:[0-9a-f]+]] malloc {{.*}}site_ids_lib.c 16 5 lib_alloc -
// CHECK-DAG: S [[LIB63:[0-9a-f]+]] malloc {{.*}}site_ids_lib.c 23 68 lib_alloc -
// CHECK-DAG: S [[OWN0:[0-9a-f]+]] malloc {{.*}}site_ids.c 51 5 own_alloc -
// CHECK-DAG: S [[OWN63:[0-9a-f]+]] malloc {{.*}}site_ids.c 58 68 own_alloc -
// CHECK-DAG: S [[COPY:[0-9a-f]+]] - - 0 0 main -
// CHECK-DAG: C {{[0-9]+}} [[LIB0]] 81 1296 81 0 1296
// CHECK-DAG: C {{[0-9]+}} [[LIB63]] 81 1296 81 0 1296
// CHECK-DAG: C {{[0-9]+}} [[OWN0]] 81 3888 81 0 3888
// CHECK-DAG: C {{[0-9]+}} [[OWN63]] 81 3888 81 0 3888
// CHECK-DAG: C {{[0-9]+}} [[COPY]] 1 100 1 0 100
// After the frees, in the library and in the program.
// CHECK-DAG: C {{[0-9]+}} [[LIB0]] 0 0 81 81 1296
// CHECK-DAG: C {{[0-9]+}} [[OWN63]] 0 0 81 81 3888
