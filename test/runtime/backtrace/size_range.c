// Proves: backtrace_min_size, backtrace_max_size and backtrace_size (and
// their short names bt_min_sz, bt_max_sz, bt_sz) record stacks only for
// allocations whose size is in range; the others are still tracked (they
// are in the heap dump, with no frames). Without a limit every size has
// its stack.
// RUN: %mdebug_clang -O1 -g -I%mdebug_include %s -o %t
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_min_size=100" %t %t.min 2>/dev/null
// RUN: env MDEBUG_OPTIONS="backtrace bt_min_sz=100" %t %t.min_short 2>/dev/null
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_max_size=100" %t %t.max 2>/dev/null
// RUN: env MDEBUG_OPTIONS="backtrace bt_max_sz=100" %t %t.max_short 2>/dev/null
// RUN: env MDEBUG_OPTIONS="backtrace backtrace_size=100" %t %t.exact 2>/dev/null
// RUN: env MDEBUG_OPTIONS="backtrace bt_sz=100" %t %t.exact_short 2>/dev/null
// RUN: env MDEBUG_OPTIONS="backtrace" %t %t.all 2>/dev/null
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t %t.min %t.min_short %t.max %t.max_short %t.exact %t.exact_short %t.all | %FileCheck %s
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
// CHECK-LABEL: == {{.*}}.min
// CHECK: sz 1000 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 100 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 10 num 1 frames 0 bt{{$}}
// CHECK-LABEL: == {{.*}}.min_short
// CHECK: sz 1000 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 100 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 10 num 1 frames 0 bt{{$}}
// CHECK-LABEL: == {{.*}}.max
// CHECK: sz 1000 num 1 frames 0 bt{{$}}
// CHECK: sz 100 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 10 num 1 frames 3 bt make main [libc.so.6]
// CHECK-LABEL: == {{.*}}.max_short
// CHECK: sz 1000 num 1 frames 0 bt{{$}}
// CHECK: sz 100 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 10 num 1 frames 3 bt make main [libc.so.6]
// CHECK-LABEL: == {{.*}}.exact
// CHECK: sz 1000 num 1 frames 0 bt{{$}}
// CHECK: sz 100 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 10 num 1 frames 0 bt{{$}}
// CHECK-LABEL: == {{.*}}.exact_short
// CHECK: sz 1000 num 1 frames 0 bt{{$}}
// CHECK: sz 100 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 10 num 1 frames 0 bt{{$}}
// CHECK-LABEL: == {{.*}}.all
// CHECK: sz 1000 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 100 num 1 frames 3 bt make main [libc.so.6]
// CHECK: sz 10 num 1 frames 3 bt make main [libc.so.6]
// CHECK-NEXT: heap dump OK
