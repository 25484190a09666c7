// Proves: a block from malloc released with delete is reported as an
// alloc-dealloc mismatch naming both calls and both sites.
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
#include <cstdlib>

int main(int argc, char **argv) {
  int *p = static_cast<int *>(std::malloc(sizeof(int)));
  if (argc > 1)
    std::free(p);
  else
    delete p;
  return 0;
}
// CHECK: mdebug: ERROR: alloc-dealloc mismatch in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 4 ALLOCATED BY malloc RELEASED BY operator delete
// CHECK-NEXT:   allocated by malloc at {{.*}}malloc_delete.cpp:9:31 (main)
// CHECK-NEXT:   released by operator delete at {{.*}}malloc_delete.cpp:13:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 alloc-dealloc mismatch), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
