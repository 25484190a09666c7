// Proves: backtrace_min_size, backtrace_max_size and backtrace_size (and
// their short names bt_min_sz, bt_max_sz, bt_sz) record stacks only for
// allocations whose size is in range; the others are still tracked (they
// are in the heap dump, with no frames). Without a limit every size has
// its stack.
// RUN: %mdebug_clang -O1 -g -I%mdebug_include %s -o %t
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_min_size=100" %t %t.dump 2>/dev/null
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dump | %FileCheck %s --check-prefix=MIN
// RUN: env MDEBUG_OPTIONS="backtrace bt_min_sz=100" %t %t.dump 2>/dev/null
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dump | %FileCheck %s --check-prefix=MIN
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_max_size=100" %t %t.dump 2>/dev/null
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dump | %FileCheck %s --check-prefix=MAX
// RUN: env MDEBUG_OPTIONS="backtrace bt_max_sz=100" %t %t.dump 2>/dev/null
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dump | %FileCheck %s --check-prefix=MAX
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_size=100" %t %t.dump 2>/dev/null
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dump | %FileCheck %s --check-prefix=EXACT
// RUN: env MDEBUG_OPTIONS="backtrace bt_sz=100" %t %t.dump 2>/dev/null
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dump | %FileCheck %s --check-prefix=EXACT
// RUN: env MDEBUG_OPTIONS="backtrace" %t %t.dump 2>/dev/null
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.dump | %FileCheck %s --check-prefix=ALL
#include <mdebug/mdebug.h>
#include <stdlib.h>

void *kept[3];
__attribute__((noinline)) void *make(size_t n) { return malloc(n); }

int main(int argc, char **argv) {
  kept[0] = make(1000);
  kept[1] = make(100);
  kept[2] = make(10);
  return mdebug_dump_heap(argv[1]);
}
// MIN: sz 1000 num 1 frames 3 bt make main [libc.so.6]
// MIN: sz 100 num 1 frames 3 bt make main [libc.so.6]
// MIN-NEXT: sz 10 num 1 frames 0 bt{{$}}
// MAX: sz 1000 num 1 frames 0 bt{{$}}
// MAX: sz 100 num 1 frames 3 bt make main [libc.so.6]
// MAX-NEXT: sz 10 num 1 frames 3 bt make main [libc.so.6]
// EXACT: sz 1000 num 1 frames 0 bt{{$}}
// EXACT: sz 100 num 1 frames 3 bt make main [libc.so.6]
// EXACT-NEXT: sz 10 num 1 frames 0 bt{{$}}
// ALL: sz 1000 num 1 frames 3 bt make main [libc.so.6]
// ALL: sz 100 num 1 frames 3 bt make main [libc.so.6]
// ALL-NEXT: sz 10 num 1 frames 3 bt make main [libc.so.6]
