// Proves: a block whose only pointer is a __thread variable of a shared
// library loaded with dlopen (general-dynamic TLS: the thread's copy is a
// block ld.so allocates on first use, found through the thread's dtv) is
// not a leak while the thread runs (blocked reading a pipe when main
// returns). The control run has the library clear its variable first, and
// the block is then reported with its site in the library.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g -shared -fPIC %S/../../Inputs/leak_check_lib.c -o %t.dir/liblc.so
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t -ldl -lpthread
// RUN: %t %t.dir/liblc.so 2>&1 | %FileCheck %s --allow-empty
// RUN: %not %t %t.dir/liblc.so drop 2>&1 | %FileCheck %s --check-prefix=CONTROL
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "leak_check_util.h"

static void (*keep_thread)(size_t);
static void (*drop_thread)(void);
static int fds[2];
static int ready, drop;

static void *holder(void *arg) {
  keep_thread(72);
  if (drop)
    drop_thread();
  scrub_stack();
  __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
  char c;
  while (read(fds[0], &c, 1) != 0) /* nobody writes: blocks until exit */
    ;
  return NULL;
}

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  keep_thread = (void (*)(size_t))dlsym(lib, "lc_keep_thread");
  drop_thread = (void (*)(void))dlsym(lib, "lc_drop_thread");
  drop = argc > 2;
  pipe(fds);
  pthread_t t;
  pthread_create(&t, NULL, holder, NULL);
  while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
    sched_yield();
  return 0;
}
// CHECK-NOT: mdebug
// CONTROL: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CONTROL-NEXT: mdebug: 72 bytes leaked in 1 block (1 direct, 0 indirect); {{[0-9]+}} block{{s?}} ({{[0-9]+}} bytes) still reachable
// CONTROL-NEXT: Direct leak of 72 bytes in 1 block:
// CONTROL-NEXT:   allocated by malloc at {{.*}}Inputs/leak_check_lib.c:21:15 (lc_keep_thread)
// CONTROL-NEXT: +++ [[PROG]] leaked block of size 72 at 0x{{[0-9a-f]+}} (leak 1 of 1)
// CONTROL-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CONTROL-NEXT: mdebug: SUMMARY: 0 errors, 72 bytes leaked in 1 block
