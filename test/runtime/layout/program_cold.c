// Proves: a program linked by mdebug-clang keeps its cold code (the checks'
// failure blocks that -fmdebug-check-access moves to .text.unlikely.*, and
// functions the compiler knows are cold) in an output section
// .text.unlikely of its own (mdebug-layout.ld), after .text and .fini, and
// sharing no 64 KiB window (the kernel's fault-around) with any code that
// runs; and that after a clean run, the exit checks included, none of its
// pages is resident (/proc/self/pagemap). program_cold_lld.test links it
// with lld. A check
// that fails runs cold code, whose pages are then resident (the count can
// fail). With gold, which cannot read the script, the wrapper leaves it out,
// and the program links and runs with its cold code inside .text.
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g -I%S/../../Inputs %s -o %t
// RUN: %t 2>&1 | %FileCheck %s
// RUN: %not %t bad 2>&1 | %FileCheck %s --check-prefix=BAD
// RUN: %mdebug_clang -fmdebug-check-access -O1 -g -I%S/../../Inputs -fuse-ld=gold %s -o %t.gold
// RUN: %t.gold 2>&1 | %FileCheck %s --check-prefix=GOLD
// CHECK-NOT: mdebug
// CHECK: layout: .text.unlikely after .text and .fini, in no window of other code
// CHECK-NEXT: main: cold pages resident: 0 of {{[1-9][0-9]*}}
// CHECK-NEXT: exit: cold pages resident: 0 of {{[1-9][0-9]*}}
// CHECK-NOT: mdebug
// BAD: mdebug: ERROR: heap buffer overflow
// BAD: read at {{.*}}program_cold.c:[[@LINE+29]]
// BAD: main: cold pages resident: {{[1-9][0-9]*}} of
// GOLD-NOT: mdebug
// GOLD: layout: no section .text.unlikely
// GOLD-NOT: mdebug
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pagemap_util.h"

/* Checked accesses, each with a failure block in the cold part. */
struct item {
  long key, value;
  struct item *next;
};
__attribute__((noinline)) static long sum(const struct item *it) {
  long s = 0;
  for (; it; it = it->next)
    s += it->key * it->value;
  return s;
}
__attribute__((noinline)) static long at(const long *v, long i) {
  return v[i];
}

/* .text.unlikely, where it is loaded. */
static uintptr_t cold_lo, cold_hi;

static void count(const char *when) {
  if (!cold_lo)
    return;
  unsigned pages, present = pages_present(cold_lo, cold_hi, &pages);
  dprintf(2, "%s: cold pages resident: %u of %u\n", when, present, pages);
}
static void at_exit(void) { count("exit"); }
/* Registered before the runtime's exit work, so it runs after it (when the
 * runtime exits with its own status, after a report, it does not). */
__attribute__((constructor(101))) static void early(void) { atexit(at_exit); }

static int first_module(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  *(uintptr_t *)arg = info->dlpi_addr;
  return 1;
}

/* The executable's section headers: .text.unlikely against the other code
 * sections (the runtime's cold code, mdebug_cold, may share its windows). */
static void check_layout(void) {
  int fd = open("/proc/self/exe", O_RDONLY);
  ElfW(Ehdr) eh;
  if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
      eh.e_shnum > 256) {
    dprintf(2, "layout: cannot read the executable\n");
    return;
  }
  ElfW(Shdr) sh[256];
  char names[8192] = {0};
  size_t bytes = (size_t)eh.e_shnum * sizeof(sh[0]);
  if (pread(fd, sh, bytes, (off_t)eh.e_shoff) != (ssize_t)bytes ||
      pread(fd, names, sizeof(names) - 1,
            (off_t)sh[eh.e_shstrndx].sh_offset) <= 0) {
    dprintf(2, "layout: cannot read the section headers\n");
    return;
  }
  close(fd);
  int cold = -1;
  uintptr_t text_end = 0, fini_end = 0;
  for (int i = 0; i < eh.e_shnum; i++) {
    const char *name =
        sh[i].sh_name < sizeof(names) - 1 ? names + sh[i].sh_name : "";
    if (!strcmp(name, ".text.unlikely"))
      cold = i;
    if (!strcmp(name, ".text"))
      text_end = sh[i].sh_addr + sh[i].sh_size;
    if (!strcmp(name, ".fini"))
      fini_end = sh[i].sh_addr + sh[i].sh_size;
  }
  if (cold < 0) {
    dprintf(2, "layout: no section .text.unlikely\n");
    return;
  }
  const uintptr_t window = 65536;
  uintptr_t lo = sh[cold].sh_addr, hi = lo + sh[cold].sh_size;
  uintptr_t wlo = lo & ~(window - 1), whi = (hi + window - 1) & ~(window - 1);
  bool apart = text_end && fini_end && text_end <= lo && fini_end <= lo;
  for (int i = 0; i < eh.e_shnum; i++) {
    const char *name = names + sh[i].sh_name;
    if (i == cold || !(sh[i].sh_flags & SHF_EXECINSTR) || !sh[i].sh_size ||
        !strcmp(name, "mdebug_cold"))
      continue;
    uintptr_t a = sh[i].sh_addr, b = a + sh[i].sh_size;
    if (a < whi && b > wlo) {
      dprintf(2, "layout: %s [%#lx, %#lx) shares a window with "
                 ".text.unlikely [%#lx, %#lx)\n",
              name, (unsigned long)a, (unsigned long)b, (unsigned long)lo,
              (unsigned long)hi);
      apart = false;
    }
  }
  if (apart)
    dprintf(2, "layout: .text.unlikely after .text and .fini, in no window "
               "of other code\n");
  uintptr_t bias = 0;
  dl_iterate_phdr(first_module, &bias);
  cold_lo = bias + lo;
  cold_hi = bias + hi;
}

int main(int argc, char **argv) {
  check_layout();
  bool bad = argc > 1 && !strcmp(argv[1], "bad");
  struct item *list = NULL;
  for (long i = 0; i < 1000; i++) {
    struct item *it = malloc(sizeof *it);
    it->key = i;
    it->value = i + 1;
    it->next = list;
    list = it;
  }
  long *v = calloc(8, sizeof *v);
  long r = sum(list) + at(v, bad ? 8 : 7);
  free(v);
  while (list) {
    struct item *next = list->next;
    free(list);
    list = next;
  }
  count("main");
  return r == 42;
}
