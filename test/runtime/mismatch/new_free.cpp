// Proves: a block from operator new released with free is reported as an
// alloc-dealloc mismatch naming both calls and both sites.
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <cstdlib>

int main(int argc, char **argv) {
  long *p = new long(7);
  if (argc > 1)
    delete p;
  else
    std::free(p);
  return 0;
}
// CHECK: mdebug: ERROR: alloc-dealloc mismatch in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 ALLOCATED BY operator new RELEASED BY free
// CHECK-NEXT:   allocated by operator new at {{.*}}new_free.cpp:9:13 (main)
// CHECK-NEXT:   released by free at {{.*}}new_free.cpp:13:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 alloc-dealloc mismatch), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
