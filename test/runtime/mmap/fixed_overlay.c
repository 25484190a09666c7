// Proves: MAP_FIXED over part of a mapping replaces that part: the overlay
// (a shared, read-only file mapping) is listed with its own site,
// protection and flags, and what is left of the mapping under it is two
// pieces with the first site; MAP_FIXED_NOREPLACE over it fails and changes
// nothing; mprotect splits a mapping into pieces with their own protection,
// and the leak scan never reads a page made inaccessible (the mapping is
// kept through a global, and pages mprotect'ed PROT_NONE - through mdebug,
// or by a raw system call it never sees - lie in it).
// RUN: %mdebug_clang -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: env MDEBUG_OPTIONS="leak_track mapping_leaks_fail" %not %t 2>&1 | %FileCheck %s
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE 4096

static char *base, *overlay, *other;

int main(void) {
  base = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  int fd = memfd_create("overlay", 0);
  if (base == MAP_FAILED || fd < 0 || ftruncate(fd, 2 * PAGE) != 0)
    abort();
  char *o = overlay = mmap(base + 4 * PAGE, 2 * PAGE, PROT_READ, MAP_SHARED | MAP_FIXED,
                 fd, 0);
  char *n = mmap(base, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
                 MAP_FIXED_NOREPLACE, -1, 0);
  if (o != base + 4 * PAGE || n != MAP_FAILED || errno != EEXIST)
    abort();
  other = mmap(NULL, 8 * PAGE, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memset(other, 0x5a, 8 * PAGE);
  mprotect(other + 2 * PAGE, 2 * PAGE, PROT_NONE);
  syscall(SYS_mprotect, other + 6 * PAGE, PAGE, PROT_NONE); /* unseen */
  printf("base %p overlay %p other %p\n", (void *)base, (void *)o,
         (void *)other);
  return 0;
}
// CLEAN-NOT: mdebug
// CLEAN: base
// CLEAN-NOT: mdebug
//
// CHECK: base [[BASE:0x[0-9a-f]+]] overlay [[OVERLAY:0x[0-9a-f]+]] other [[OTHER:0x[0-9a-f]+]]
// CHECK: 57344 bytes in 2 mappings:
// CHECK-NEXT:   allocated by mmap at {{.*}}fixed_overlay.c:26:10 (main)
// CHECK-NEXT: +++ [[PROG:.*]] leaked mapping of 40960 bytes at 0x{{[0-9a-f]+}} (rw- private anonymous)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 16384 bytes at [[BASE]] (rw- private anonymous)
// CHECK-NEXT: 32768 bytes in 3 mappings:
// CHECK-NEXT:   allocated by mmap at {{.*}}fixed_overlay.c:37:11 (main)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 16384 bytes at 0x{{[0-9a-f]+}} (rw- private anonymous)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 8192 bytes at [[OTHER]] (rw- private anonymous)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 8192 bytes at 0x{{[0-9a-f]+}} (--- private anonymous)
// CHECK-NEXT: 8192 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at {{.*}}fixed_overlay.c:31:23 (main)
// CHECK-NEXT: +++ [[PROG]] leaked mapping of 8192 bytes at [[OVERLAY]] (r-- shared file)
// CHECK: mdebug: SUMMARY
