// Proves: no frame of mdebug's runtime appears in any recorded stack (heap
// dump records, report stacks), in every way the runtime is linked: static
// in the program (mdebug-clang++), libmdebug-rt.so linked by the program,
// and LD_PRELOAD. Not even in the middle of a stack: a new-handler that
// allocates runs below operator new's own frames, which used to be kept.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %mdebug_clangxx -g %s -o %t.static
// RUN: %clangxx -g -fno-omit-frame-pointer %s -o %t.plain
// RUN: %clangxx -g -fno-omit-frame-pointer %s -L%mdebug_libdir -Wl,-rpath,%mdebug_libdir -lmdebug-rt -o %t.linked
// RUN: llvm-readelf -d %t.linked | %FileCheck %s --check-prefix=LINKED
// RUN: env MDEBUG_OPTIONS="max_allocation_size=140737488355327 backtrace backtrace_full backtrace_dump_on_exit backtrace_dump_prefix=%t.dir/static" %t.static > %t.dir/static.out 2>&1
// RUN: env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS="max_allocation_size=140737488355327 backtrace backtrace_full backtrace_dump_on_exit backtrace_dump_prefix=%t.dir/preload" %t.plain > %t.dir/preload.out 2>&1
// RUN: env MDEBUG_OPTIONS="max_allocation_size=140737488355327 backtrace backtrace_full backtrace_dump_on_exit backtrace_dump_prefix=%t.dir/linked" %t.linked > %t.dir/linked.out 2>&1
// RUN: %python %S/../../Inputs/heap_dump_check.py --binary %t.static %t.dir/static.*.exit.txt | %FileCheck %s --check-prefix=DUMP
// RUN: %python %S/../../Inputs/runtime_frames.py %mdebug_rt_a %t.dir/static.*.exit.txt | %FileCheck %s
// RUN: %python %S/../../Inputs/runtime_frames.py %mdebug_rt_a %t.dir/preload.*.exit.txt | %FileCheck %s
// RUN: %python %S/../../Inputs/runtime_frames.py %mdebug_rt_a %t.dir/linked.*.exit.txt | %FileCheck %s
// Reports: the stacks of a double free (allocation, free, failure).
// RUN: env MDEBUG_OPTIONS="max_allocation_size=140737488355327 backtrace" %not %t.static double 2> %t.dir/static.report
// RUN: env LD_PRELOAD=%mdebug_rt_so MDEBUG_OPTIONS="max_allocation_size=140737488355327 backtrace" %not %t.plain double 2> %t.dir/preload.report
// RUN: env MDEBUG_OPTIONS="max_allocation_size=140737488355327 backtrace" %not %t.linked double 2> %t.dir/linked.report
// RUN: %FileCheck %s --check-prefix=REPORT < %t.dir/static.report
// RUN: %python %S/../../Inputs/runtime_frames.py %mdebug_rt_a %t.dir/static.report | %FileCheck %s
// RUN: %python %S/../../Inputs/runtime_frames.py %mdebug_rt_a %t.dir/preload.report | %FileCheck %s
// RUN: %python %S/../../Inputs/runtime_frames.py %mdebug_rt_a %t.dir/linked.report | %FileCheck %s
// Clean case: the same program without other options prints nothing from
// mdebug. (max_allocation_size=2^47-1, the most the heap allows, everywhere:
// new of 2^47-1 bytes then really finds no memory, and calls the
// new-handler, where the default limit would refuse it at once.)
// RUN: env MDEBUG_OPTIONS=max_allocation_size=140737488355327 %t.static 2>&1 | count 0
#include <cstdlib>
#include <cstring>
#include <new>

static void *kept[3];

// Called by operator new, inside the runtime, when it finds no memory.
static void allocating_handler() {
  kept[0] = std::malloc(48);
  std::set_new_handler(nullptr); // the next try throws
}

__attribute__((noinline)) static void ask_too_much() {
  std::set_new_handler(allocating_handler);
  try {
    volatile std::size_t huge = (std::size_t(1) << 47) - 1; /* no mapping */
    kept[2] = new char[huge];
  } catch (const std::bad_alloc &) {
  }
}

int main(int argc, char **argv) {
  ask_too_much();
  kept[1] = new int[6];
  if (argc > 1 && std::strcmp(argv[1], "double") == 0) {
    char *p = static_cast<char *>(std::malloc(13));
    std::free(p);
    std::free(p);
  }
  return 0;
}
// LINKED: (NEEDED) Shared library: [libmdebug-rt.so]
// DUMP: sz 48 num 1 frames 4 bt _ZL18allocating_handlerv _ZL12ask_too_muchv main [libc.so.6]
// DUMP: sz 24 num 1 frames 2 bt main [libc.so.6]
// DUMP: heap dump OK
// REPORT: DOUBLE FREE
// REPORT: Backtrace at time of failure:
// CHECK: frames: {{[1-9][0-9]*}}, none of the runtime
