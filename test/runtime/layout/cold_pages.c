// Proves: the runtime's rarely-run code (the section mdebug_cold, base.h)
// is not executed, and stays out of the resident set, in a clean run:
// with the cold pages (but the last, which the hot code starts on:
// cold_end.c) made inaccessible at the start of main, ordinary allocation
// work, a thread and the exit checks (leak scan included) run to the end;
// and after that work, at the end of main and again after the exit checks,
// none of those pages is present (/proc/self/pagemap). Statically linked
// and preloaded alike. An error report runs cold code: with the pages
// inaccessible it faults, and without, its pages are then present (both
// checks can fail).
// RUN: %mdebug_clang -O1 -g -I%S/../../Inputs %s -o %t.static -lpthread
// RUN: %clang -O1 -g -I%S/../../Inputs %s -o %t.plain -lpthread
// RUN: %t.static 2>&1 | %FileCheck %s
// RUN: env LD_PRELOAD=%mdebug_rt_so %t.plain 2>&1 | %FileCheck %s
// RUN: %t.static guard 2>&1 | %FileCheck %s --check-prefix=GUARD
// RUN: env LD_PRELOAD=%mdebug_rt_so %t.plain guard 2>&1 | %FileCheck %s --check-prefix=GUARD
// RUN: %not %t.static report 2>&1 | %FileCheck %s --check-prefix=REPORT
// RUN: env LD_PRELOAD=%mdebug_rt_so %not %t.plain report 2>&1 | %FileCheck %s --check-prefix=REPORT
// RUN: %not --crash %t.static guard report 2>&1 | %FileCheck %s --check-prefix=FAULT
// RUN: env LD_PRELOAD=%mdebug_rt_so %not --crash %t.plain guard report 2>&1 | %FileCheck %s --check-prefix=FAULT
// CHECK-NOT: mdebug
// CHECK: main: cold pages resident: 0 of {{[1-9][0-9]*}}
// CHECK-NEXT: exit: cold pages resident: 0 of {{[1-9][0-9]*}}
// CHECK-NOT: mdebug
// GUARD-NOT: mdebug
// GUARD: main: done
// GUARD-NOT: mdebug
// REPORT: mdebug: ERROR: double free
// REPORT: main: cold pages resident: {{[1-9][0-9]*}} of
// FAULT: reporting
// FAULT-NOT: main: done
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pagemap_util.h"

/* The cold code: the section mdebug_cold of the module that holds it (the
 * executable, statically linked, or libmdebug-rt.so, preloaded), from the
 * module's section headers. */
static uintptr_t cold_lo, cold_hi;

static int find(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  const char *path = info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
  int fd = open(path, O_RDONLY);
  ElfW(Ehdr) eh;
  if (fd < 0 || cold_lo || pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
      memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_shnum > 256) {
    if (fd >= 0)
      close(fd);
    return 0;
  }
  ElfW(Shdr) sh[256];
  char names[4096] = {0};
  size_t bytes = (size_t)eh.e_shnum * sizeof(sh[0]);
  if (pread(fd, sh, bytes, (off_t)eh.e_shoff) == (ssize_t)bytes &&
      pread(fd, names, sizeof(names) - 1,
            (off_t)sh[eh.e_shstrndx].sh_offset) > 0) {
    for (int i = 0; i < eh.e_shnum; i++) {
      if (sh[i].sh_name < sizeof(names) - 1 &&
          !strcmp(names + sh[i].sh_name, "mdebug_cold")) {
        cold_lo = info->dlpi_addr + sh[i].sh_addr;
        cold_hi = cold_lo + sh[i].sh_size;
      }
    }
  }
  close(fd);
  return 0;
}

/* Pages of [cold_lo, cold_hi) present in memory (/proc/self/pagemap's bit
 * 63, what RSS counts), but the last. */
static bool guarded;

static void count(const char *when) {
  if (guarded)
    return; /* inaccessible pages are never present */
  uintptr_t last = (cold_hi - 1) & ~(uintptr_t)4095;
  unsigned pages, present = pages_present(cold_lo, last, &pages);
  dprintf(2, "%s: cold pages resident: %u of %u\n", when, present, pages);
}

static void at_exit(void) { count("exit"); }

/* Registered before the runtime's exit work, so it runs after it. */
__attribute__((constructor(101))) static void early(void) { atexit(at_exit); }

/* Through volatile pointers: the plain build must not fold the double
 * free away. */
static void *(*volatile alloc)(size_t) = malloc;
static void (*volatile release)(void *) = free;

static void *worker(void *arg) {
  for (int i = 0; i < 1000; i++)
    release(alloc((size_t)i + 1));
  return arg;
}

int main(int argc, char **argv) {
  dl_iterate_phdr(find, NULL);
  if (!cold_lo) {
    dprintf(2, "no section mdebug_cold\n");
    return 1;
  }
  bool report = false;
  for (int i = 1; i < argc; i++) {
    guarded |= !strcmp(argv[i], "guard");
    report |= !strcmp(argv[i], "report");
  }
  uintptr_t last = (cold_hi - 1) & ~(uintptr_t)4095;
  if (guarded && last > cold_lo &&
      mprotect((void *)cold_lo, last - cold_lo, PROT_NONE)) {
    dprintf(2, "mprotect failed\n");
    return 1;
  }
  /* Ordinary work: every allocation call, small and large blocks, a
   * thread. */
  void *keep[256];
  for (int i = 0; i < 256; i++) {
    keep[i] = malloc((size_t)i * 37 + 1);
    memset(keep[i], i, (size_t)i * 37 + 1);
  }
  for (int i = 0; i < 256; i += 2)
    keep[i] = realloc(keep[i], (size_t)i * 91 + 5);
  char *big = calloc(1, 1 << 20);
  big = realloc(big, 3 << 20);
  void *al = NULL;
  if (posix_memalign(&al, 4096, 10000))
    return 1;
  char *s = strdup(argv[0]);
  void *a2 = aligned_alloc(64, 640);
  void *a3 = memalign(256, 300);
  pthread_t t;
  if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
    return 1;
  for (int i = 0; i < 256; i++)
    free(keep[i]);
  free(big);
  free(al);
  free(s);
  free(a2);
  free(a3);
  if (report) {
    dprintf(2, "reporting\n");
    char *p = alloc(24);
    release(p);
    release(p);
  }
  count("main");
  if (guarded)
    dprintf(2, "main: done\n");
  return 0;
}
