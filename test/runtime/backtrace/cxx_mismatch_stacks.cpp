// Proves: stacks run through C++ functions, named demangled with their
// source lines (llvm-symbolizer): a block from operator new released by
// free() is reported with its allocation stack through zoo::make() and the
// failure stack through zoo::drop(zoo::Animal*); with symbolize=0 frames
// keep the symbol table's mangled names. The clean run deletes it: no
// report.
// RUN: %mdebug_clangxx -O1 -g %s -o %t
// RUN: env MDEBUG_OPTIONS=backtrace %not %t 2>&1 | %FileCheck %s
// RUN: env MDEBUG_OPTIONS="backtrace symbolize=0" %not %t 2>&1 | %FileCheck %s --check-prefix=RAW
// RUN: env MDEBUG_OPTIONS=backtrace %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <cstdlib>

namespace zoo {
struct Animal {
  long legs[4];
};
__attribute__((noinline)) Animal *make() { return new Animal(); }
__attribute__((noinline)) void drop(Animal *a) { std::free(a); }
__attribute__((noinline)) void destroy(Animal *a) { delete a; }
} // namespace zoo

int main(int argc, char **) {
  zoo::Animal *a = zoo::make();
  if (argc > 1)
    zoo::destroy(a);
  else
    zoo::drop(a);
  return 0;
}
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 32 ALLOCATED BY operator new RELEASED BY free
// CHECK: Backtrace at time of allocation:
// CHECK-NEXT: #00 pc 0x{{[0-9a-f]+}} in zoo::make() {{.*}}cxx_mismatch_stacks.cpp:17:{{[0-9]+}} ({{.*}}cxx_mismatch_stacks.cpp.tmp){{$}}
// CHECK-NEXT: #01 pc 0x{{[0-9a-f]+}} in main {{.*}}cxx_mismatch_stacks.cpp:23:{{[0-9]+}} ({{.*}}cxx_mismatch_stacks.cpp.tmp){{$}}
// CHECK: Backtrace at time of failure:
// CHECK-NEXT: #00 pc 0x{{[0-9a-f]+}} in zoo::drop(zoo::Animal*) {{.*}}cxx_mismatch_stacks.cpp:18:{{[0-9]+}} ({{.*}}cxx_mismatch_stacks.cpp.tmp){{$}}
// CHECK-NEXT: #01 pc 0x{{[0-9a-f]+}} in main {{.*}}cxx_mismatch_stacks.cpp:27:{{[0-9]+}} ({{.*}}cxx_mismatch_stacks.cpp.tmp){{$}}
// RAW: Backtrace at time of allocation:
// RAW-NEXT: #00 pc 0x{{[0-9a-f]+}} in _ZN3zoo4makeEv+0x{{[0-9a-f]+}} ({{.*}}cxx_mismatch_stacks.cpp.tmp){{$}}
// RAW-NEXT: #01 pc 0x{{[0-9a-f]+}} in main+0x{{[0-9a-f]+}} ({{.*}}){{$}}
// CLEAN-NOT: mdebug
