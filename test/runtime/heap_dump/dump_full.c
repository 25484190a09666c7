// Proves: with backtrace_full (bt_full) each heap dump record with frames is
// followed by a bt_info line naming every frame's module, module-relative
// pc and function ("make", "main"), consistent with the MAPS section (the
// checker verifies each relative pc); without it there are no bt_info lines.
// RUN: %mdebug_clang -O1 -g -I%mdebug_include %s -o %t
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_full" %t %t.dump
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dump | %FileCheck %s --check-prefix=VALID
// RUN: %FileCheck %s < %t.dump
// RUN: env MDEBUG_OPTIONS="bt bt_full" %t %t.dump
// RUN: %FileCheck %s < %t.dump
// RUN: env MDEBUG_OPTIONS=backtrace %t %t.dump
// RUN: %FileCheck %s --check-prefix=OFF < %t.dump
#include <mdebug/mdebug.h>
#include <stdlib.h>

void *kept;
__attribute__((noinline)) void *make(void) { return malloc(2345); }

int main(int argc, char **argv) {
  kept = make();
  return mdebug_dump_heap(argv[1]);
}
// VALID: sz 2345 num 1 frames 3 bt make main [libc.so.6]
// VALID: heap dump OK
// CHECK: z 0  sz     2345  num    1  bt {{[0-9a-f]+ [0-9a-f]+ [0-9a-f]+}}{{$}}
// CHECK-NEXT: bt_info {"{{[^"]*}}dump_full.c.tmp" {{[0-9a-f]+}} "make" {{[0-9a-f]+}}} {"{{[^"]*}}dump_full.c.tmp" {{[0-9a-f]+}} "main" {{[0-9a-f]+}}} {"{{[^"]*}}libc.so.6" {{[0-9a-f]+}} "" 0}{{$}}
// CHECK: MAPS
// OFF-NOT: bt_info
// OFF: MAPS
