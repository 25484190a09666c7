// Proves: C++ objects from operator new and new[] are checked as malloc's
// blocks: a member read through a deleted object is a use after free with
// operator new and operator delete as its sites' kinds, and an element one
// past a new[] array is a heap buffer overflow of the array. The clean twin
// stays inside.
// RUN: %mdebug_clangxx -fmdebug-check-access -O1 -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
struct Counter {
  long hits = 0;
  __attribute__((noinline)) long get() const { return hits; }
};

__attribute__((noinline)) int at(const int *v, int i) { return v[i]; }

int main(int argc, char **argv) {
  Counter *c = new Counter;
  int *v = new int[4]();
  long r = c->get();
  delete c;
  if (argc == 1)
    r += c->get();
  r += at(v, argc > 1 ? 3 : 4);
  delete[] v;
  return (int)(r & 1);
}
// CHECK: mdebug: ERROR: use after free in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 USED AFTER FREE (read)
// CHECK-NEXT:   read of size 8 at 0x{{[0-9a-f]+}}: 0 bytes inside the freed block
// CHECK-NEXT:   read at {{.*}}cxx_objects.cpp:11:{{[0-9]+}} (Counter::get() const)
// CHECK-NEXT:   allocated by operator new at {{.*}}cxx_objects.cpp:17:16 (main)
// CHECK-NEXT:   freed by operator delete at {{.*}}cxx_objects.cpp:20:3 (main)
// CHECK: mdebug: ERROR: heap buffer overflow in {{.*}}
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 READ PAST ITS END
// CHECK-NEXT:   read of size 4 at 0x{{[0-9a-f]+}}: 0 bytes after the end of the block
// CHECK-NEXT:   read at {{.*}}cxx_objects.cpp:14:{{[0-9]+}} (at(int const*, int))
// CHECK-NEXT:   allocated by operator new[] at {{.*}}cxx_objects.cpp:18:12 (main)
// CLEAN-NOT: mdebug
