// Proves: a word in ld.so's own data that is a mapping's first byte does
// not keep the mapping reachable (ld.so keeps such words stale: dl-cache.c's
// cache pointers still hold where /etc/ld.so.cache was mapped after it is
// unmapped, and a small mmap often lands exactly there, which hid the
// mapping's leak in about 1 run in 16), so the mapping is reported lost;
// a word there pointing inside the mapping still keeps it (ld.so links the
// descriptors of threads on stacks the program mapped), and so does the
// same first-byte word in the program's own data, also in a non-PIE
// program run through ld.so itself (no interpreter: AT_BASE is 0, as is
// the program's load bias; its data is not taken for the loader's). The
// word is planted in _r_debug.r_ldbase, which only a debugger reads; the
// run says where _r_debug lies so that a build that copied it out of ld.so
// fails here.
// RUN: %mdebug_clang -g -I%S/../../Inputs %s -o %t
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail %not %t start 2>&1 | %FileCheck %s
// RUN: %t inside 2>&1 | %FileCheck %s --check-prefix=KEPT
// RUN: %t global 2>&1 | %FileCheck %s --check-prefix=KEPT
// RUN: %mdebug_clang -g -no-pie -I%S/../../Inputs %s -o %t.nopie
// RUN: env MDEBUG_OPTIONS=mapping_leaks_fail /lib64/ld-linux-x86-64.so.2 %t.nopie global 2>&1 | %FileCheck %s --check-prefix=DIRECT
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>

#include "leak_check_util.h"

static char *global_word; /* the program's own data */

static __attribute__((noinline)) void lose(const char *how) {
  char *m = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    abort();
  if (strcmp(how, "start") == 0)
    _r_debug.r_ldbase = (ElfW(Addr))m;
  else if (strcmp(how, "inside") == 0)
    _r_debug.r_ldbase = (ElfW(Addr))(m + 4096);
  else
    global_word = m;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  Dl_info info;
  int in_loader = dladdr(&_r_debug, &info) &&
                  (unsigned long)info.dli_fbase == getauxval(AT_BASE);
  printf("_r_debug in ld.so: %s\n", in_loader ? "yes" : "no");
  lose(argv[1]);
  scrub_stack();
  printf("done\n");
  return 0;
}
// CHECK: _r_debug in ld.so: yes
// CHECK: done
// CHECK: mdebug: 12288 bytes leaked in 1 mapping (1 direct, 0 indirect)
// CHECK-NEXT: Direct leak of 12288 bytes in 1 mapping:
// CHECK-NEXT:   allocated by mmap at {{.*}}loader_stale_start.c:34:13 (lose)
// KEPT: _r_debug in ld.so: yes
// KEPT-NOT: mdebug
// KEPT: done
// KEPT-NOT: mdebug
// DIRECT-NOT: mdebug
// DIRECT: done
// DIRECT-NOT: mdebug
