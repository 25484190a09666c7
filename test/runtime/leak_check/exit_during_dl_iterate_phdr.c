// Proves: the exit-time leak check does not wait for the loader's lock: a
// thread parked inside a dl_iterate_phdr callback (which holds that lock)
// while main returns does not hang the exit; the lost block is reported and
// the exit status is 23. The modules' writable segments come from the
// address space map and the modules' own ELF headers, read while the
// threads are stopped, so a global of a library loaded with dlopen is
// still a root (the block it holds is not reported). The clean run loses
// nothing: status 0. A check the program asks for (mdebug_check_leaks)
// meanwhile does not wait either. A watchdog thread bounds the run (exit 3 and a line).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clang -g -shared -fPIC %S/../../Inputs/leak_check_lib.c -o %t.dir/liblc.so
// RUN: %mdebug_clang -g %s -o %t -ldl -lpthread
// RUN: %python %S/../../Inputs/exit_status.py %t %t.dir/liblc.so 2>&1 | %FileCheck %s
// RUN: %python %S/../../Inputs/exit_status.py %t %t.dir/liblc.so midrun 2>&1 | %FileCheck %s --check-prefix=ASKED
// RUN: %python %S/../../Inputs/exit_status.py %t %t.dir/liblc.so clean 2>&1 | %FileCheck %s --check-prefix=CLEAN
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mdebug/mdebug.h>

static int parked;

static int park(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info;
  (void)size;
  (void)arg;
  __atomic_store_n(&parked, 1, __ATOMIC_RELEASE);
  for (;;)
    pause(); /* inside the callback, with the loader's lock, for good */
  return 1;
}

static void *parker(void *arg) {
  dl_iterate_phdr(park, NULL);
  return arg;
}

static void *watchdog(void *arg) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  sleep(30);
  static const char msg[] = "watchdog: the exit hung\n";
  write(2, msg, sizeof(msg) - 1);
  _exit(3);
  return arg;
}

static __attribute__((noinline)) void lose(void) {
  char *p = malloc(93);
  memset(p, 'x', 93);
}

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  void (*keep)(size_t) = (void (*)(size_t))dlsym(lib, "lc_keep_global");
  if (!keep) {
    fprintf(stderr, "dlsym: %s\n", dlerror());
    return 1;
  }
  keep(51); /* held by the library's global only */
  pthread_t w, t;
  pthread_create(&w, NULL, watchdog, NULL);
  pthread_create(&t, NULL, parker, NULL);
  while (!__atomic_load_n(&parked, __ATOMIC_ACQUIRE))
    usleep(1000);
  if (argc < 3 || strcmp(argv[2], "clean") != 0)
    lose();
  if (argc > 2 && strcmp(argv[2], "midrun") == 0)
    fprintf(stderr, "check reported %zu\n", mdebug_check_leaks());
  fprintf(stderr, "main returns\n");
  return 0;
}
// CHECK: main returns
// CHECK-NOT: watchdog
// CHECK: Direct leak of 93 bytes in 1 block:
// CHECK-NEXT: allocated by malloc at {{.*}}exit_during_dl_iterate_phdr.c:57:13 (lose)
// CHECK-NOT: 51 bytes
// CHECK: mdebug: SUMMARY: 0 errors, 93 bytes leaked in 1 block
// CHECK: exit status: 23
// ASKED: Direct leak of 93 bytes in 1 block:
// ASKED: check reported 1
// ASKED: main returns
// ASKED-NOT: watchdog
// ASKED: exit status: 23
// CLEAN: main returns
// CLEAN-NOT: mdebug
// CLEAN-NOT: watchdog
// CLEAN: exit status: 0
