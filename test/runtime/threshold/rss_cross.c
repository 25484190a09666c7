// Proves: rss_threshold: pages touched in a mapping made before (no call
// of mdebug's as they are touched) raise the resident size past the
// threshold; it is reported once, with a heap dump (PREFIX.PID.rss.1.txt)
// and the top sites (the mapping touched first), by the time the program
// next maps memory (or sooner, by the watcher thread); after the size fell 10% below (an munmap), the
// next crossing is reported again. The clean case stays below.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %mdebug_clang -g %s -o %t
// RUN: env MDEBUG_OPTIONS="rss_threshold=67108864 backtrace_dump_prefix=%t.dir/dump" %t 2>&1 | %FileCheck %s
// RUN: ls %t.dir | %FileCheck %s --check-prefix=FILES
// RUN: env MDEBUG_OPTIONS="rss_threshold=1073741824 backtrace_dump_prefix=%t.dir/clean" %t 2>&1 | %FileCheck %s --check-prefix=CLEAN
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define MIB ((size_t)1 << 20)

static void cross(void) {
  char *p = mmap(NULL, 256 * MIB, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  fprintf(stderr, "mapped\n");
  memset(p, 1, 96 * MIB);
  void *q = mmap(NULL, 8 * MIB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  fprintf(stderr, "grew\n");
  munmap(q, 8 * MIB);
  munmap(p, 256 * MIB);
  fprintf(stderr, "unmapped\n");
}

int main(void) {
  cross();
  cross();
  fprintf(stderr, "done\n");
  return 0;
}
// CHECK: mapped
// CHECK-NEXT: mdebug: rss_threshold: the resident size reached {{[0-9]+}} bytes (threshold 67108864)
// CHECK-NEXT: mdebug: Dumping to file: {{.*}}dump.{{[0-9]+}}.rss.1.txt
// CHECK-NEXT: mdebug: top sites: by category: heap blocks {{[0-9]+}} bytes in {{[0-9]+}} blocks; mappings {{[0-9]+}} bytes in {{[12]}} mapping{{s?}}; thread stacks 0 bytes in 0 stacks
// CHECK-NEXT: mdebug: top sites:   268435456 bytes in 1 mapping by mmap at {{.*}}rss_cross.c:19:13 (cross)
// CHECK-NOT: rss_threshold
// CHECK: grew
// CHECK-NOT: rss_threshold
// CHECK: unmapped
// CHECK-NEXT: mapped
// CHECK-NEXT: mdebug: rss_threshold: the resident size reached {{[0-9]+}} bytes (threshold 67108864)
// CHECK-NEXT: mdebug: Dumping to file: {{.*}}dump.{{[0-9]+}}.rss.2.txt
// CHECK-NOT: rss_threshold
// CHECK: done
// CHECK-NOT: rss_threshold
//
// FILES: dump.{{[0-9]+}}.rss.1.txt
// FILES-NEXT: dump.{{[0-9]+}}.rss.2.txt
// FILES-NOT: dump
//
// CLEAN-NOT: mdebug
// CLEAN: done
// CLEAN-NOT: mdebug
