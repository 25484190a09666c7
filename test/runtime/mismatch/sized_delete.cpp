// Proves: a sized operator delete given another size than the block was
// allocated with (an object deleted through a pointer to a base class of
// another size, with no virtual destructor) is reported as a new-delete
// size mismatch naming both sizes and both sites, then released (no leak);
// the same for the array and aligned forms called directly, and in a
// program that was not instrumented. Deleting through a base with a
// virtual destructor passes the right size: nothing is reported.
// RUN: %mdebug_clangxx -g -O0 -std=c++17 -fsized-deallocation %s -o %t
// RUN: %not %t bug 2>&1 | %FileCheck %s --check-prefixes=CHECK,SITES
// RUN: %clangxx -g -O0 -std=c++17 -fsized-deallocation %s -o %t.plain
// RUN: %not env LD_PRELOAD=%mdebug_rt_so %t.plain bug 2>&1 | %FileCheck %s
// RUN: %t 2>&1 | count 0
#include <cstdlib>
#include <cstring>
#include <new>

struct Base {
  long id;
};
struct Derived : Base {
  long more[2];
};
struct VBase {
  virtual ~VBase() {}
  long id;
};
struct VDerived : VBase {
  long more[2];
};
struct alignas(64) Wide {
  char bytes[64];
};

int main(int argc, char **argv) {
  VBase *v = new VDerived;
  delete v; /* right: the virtual destructor passes sizeof(VDerived) */
  if (argc < 2)
    return 0;
  Base *b = new Derived;
  delete b;
  void *a = ::operator new[](40);
  ::operator delete[](a, 48);
  void *w = ::operator new(sizeof(Wide), std::align_val_t(64));
  ::operator delete(w, 2 * sizeof(Wide), std::align_val_t(64));
  return 0;
}
// CHECK: mdebug: ERROR: new-delete size mismatch in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 24 RELEASED WITH SIZE 8 (operator delete)
// SITES-NEXT:   allocated by operator new at {{.*}}sized_delete.cpp:39:13 (main)
// SITES-NEXT:   released by operator delete at {{.*}}sized_delete.cpp:40:3 (main)
// CHECK:   the block has 24 bytes; operator delete was told 8: deleted through a pointer to a type of another size?
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 40 RELEASED WITH SIZE 48 (operator delete[])
// SITES-NEXT:   allocated by operator new[] at {{.*}}sized_delete.cpp:41:13 (main)
// SITES-NEXT:   released by operator delete[] at {{.*}}sized_delete.cpp:42:3 (main)
// CHECK: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 64 RELEASED WITH SIZE 128 (aligned operator delete)
// CHECK: mdebug: SUMMARY: 3 errors (3 new-delete size mismatch), 0 bytes leaked in 0 blocks
