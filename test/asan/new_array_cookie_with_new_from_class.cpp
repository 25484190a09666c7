// Adapted from compiler-rt test/asan/TestCases/Posix/new_array_cookie_with_new_from_class.cpp (a class with its own operator new[] gets its array cookie inside the char block it allocated: writing that cookie is no error).
// EXPECT: - clean
#include <assert.h>
#include <new>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct Foo {
  void *operator new(size_t s) { return Allocate(s); }
  void *operator new[](size_t s) { return Allocate(s); }
  ~Foo();
  static void *allocated;
  static void *Allocate(size_t s) {
    assert(!allocated);
    return allocated = ::new char[s];
  }
};

Foo::~Foo() {}
void *Foo::allocated;

Foo *getFoo(size_t n) { return new Foo[n]; }

int main() {
  Foo *foo = getFoo(10);
  fprintf(stderr, "foo  : %p\n", foo);
  fprintf(stderr, "alloc: %p\n", Foo::allocated);
  assert(reinterpret_cast<uintptr_t>(foo) ==
         reinterpret_cast<uintptr_t>(Foo::allocated) + sizeof(void *));
  *reinterpret_cast<uintptr_t *>(Foo::allocated) = 42;
  delete[] static_cast<char *>(Foo::allocated);
  return 0;
}

// RUN lines: the modes the checked build gets right (bench/asan-parity.py --promote).
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %t 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: mdebug
