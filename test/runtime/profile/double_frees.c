// Proves: a double free the runtime reports is also written to the profile
// (an X record: the block's allocation site, the first free's site, the
// second free's site), so mdebug-report's double-frees table counts it; the
// clean case, with the same profile options and no double free, writes no
// X record and mdebug-report says 0 double frees.
// RUN: %mdebug_clang -g %s -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env MDEBUG_OPTIONS="free_track profile_prefix=%t.d/prof" %not %t 2>&1 | %FileCheck %s --check-prefix=STDERR
// RUN: grep '^X ' %t.d/prof.*.mdprof | %FileCheck %s --check-prefix=FILE
// RUN: %mdebug_report --report=double-frees %t.d/prof.*.mdprof | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="free_track profile_prefix=%t.d/clean" %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %not grep -q '^X ' %t.d/clean.*.mdprof
// RUN: %mdebug_report --report=double-frees %t.d/clean.*.mdprof | %FileCheck %s --check-prefix=CLEAN-REPORT
#include <stdlib.h>

int main(int argc, char **argv) {
  char *p = malloc(24);
  free(p);
  if (argc < 2)
    free(p);
  return 0;
}
// STDERR: DOUBLE FREE
// FILE: X {{[0-9]+}} {{[0-9a-f]+}} 24 {{[0-9a-f]+}} {{[0-9a-f]+}} {{[0-9a-f]+}}
// FILE-NOT: X
// CHECK: 1 double free
// CHECK: double_frees.c:17
// CHECK-SAME: double_frees.c:18
// CHECK-SAME: double_frees.c:20
// CLEAN-NOT: mdebug
// CLEAN-REPORT: 0 double frees
