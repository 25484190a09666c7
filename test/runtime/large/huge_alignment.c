// Proves: a block with a huge alignment holds the pages it needs, not the
// alignment: posix_memalign(&p, 1 << 40, 64) (issue 27) takes a few pages of
// address space while live and while the quarantine holds it, where a
// mapping of size + alignment would hold a terabyte, counted nowhere. The
// block is aligned, usable, and freed without a report; a 1 GiB alignment
// (in the arena) too.
// RUN: %mdebug_clang -g -O1 %s -o %t
// RUN: %t 40 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: %t 30 2>&1 | %FileCheck %s --implicit-check-not=mdebug
// RUN: env MDEBUG_OPTIONS=none %t 40 2>&1 | %FileCheck %s --implicit-check-not=mdebug
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The process's address space (VmSize), in MiB. */
static long vm_mb(void) {
  char line[256];
  long kb = -1;
  FILE *f = fopen("/proc/self/status", "r");
  while (f && fgets(line, sizeof(line), f))
    if (sscanf(line, "VmSize: %ld kB", &kb) == 1)
      break;
  if (f)
    fclose(f);
  return kb / 1024;
}

int main(int argc, char **argv) {
  unsigned shift = argc > 1 ? (unsigned)atoi(argv[1]) : 40;
  size_t align = (size_t)1 << shift;
  long before = vm_mb();
  void *p = NULL;
  if (posix_memalign(&p, align, 64) != 0)
    return 1;
  memset(p, 1, 64);
  long live = vm_mb() - before;
  free(p);
  long freed = vm_mb() - before;
  printf("aligned: %s; address space held: live %s, freed %s\n",
         (uintptr_t)p % align == 0 ? "yes" : "no",
         live < 64 ? "under 64 MiB" : "more",
         freed < 64 ? "under 64 MiB" : "more");
  return 0;
}
// CHECK: aligned: yes; address space held: live under 64 MiB, freed under 64 MiB
