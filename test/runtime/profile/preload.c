// Proves: a program that was not rebuilt, run under LD_PRELOAD, gets a
// profile too: its sites are caller addresses, named in the profile by
// module, offset and function (S records with a module index), with the
// same exact totals, and mdebug-report names them "module+0xOFF
// (function)"; the clean case: without a profile option the preloaded
// runtime writes no profile.
// RUN: %clang -g -O0 %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS="none sample_rate=1 profile_prefix=%t.d/prof" %t 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: grep '^[MSC] ' %t.d/prof.*.mdprof | %FileCheck %s
// RUN: %mdebug_report --report=alloc-points --function=keep_some %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=REPORT
// RUN: rm -rf %t.d && mkdir -p %t.d && cd %t.d
// RUN: env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS=none %t 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: ls %t.d | count 0
#include <stdlib.h>

static void *kept[100];

__attribute__((noinline)) void keep_some(void) {
  for (int i = 0; i < 100; i++)
    kept[i] = malloc(72);
}

int main(void) {
  keep_some();
  for (int i = 0; i < 50; i++)
    free(kept[i]);
  return 0;
}
// QUIET-NOT: mdebug
// CHECK: M [[MOD:[0-9]+]] {{.*}}preload.c.tmp
// CHECK: S [[SITE:[0-9a-f]+]] - - 0 0 keep_some - [[MOD]] {{[0-9a-f]+}}
// CHECK: C {{[0-9]+}} [[SITE]] 50 3600 100 50 7200 {{[0-9]+}}
// REPORT: 1 3.5 KiB {{.*}} 50 100 50 72 B {{.*}} allocated at pc 0x{{[0-9a-f]+}} in keep_some {{.*}}preload.c:21:{{[0-9]+}} ({{.*}}preload.c.tmp){{$}}
