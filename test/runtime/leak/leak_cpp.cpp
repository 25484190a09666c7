// Proves: C++ leaks are reported by allocating operator (operator new and
// operator new[]) with the site and the enclosing function.
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
struct Widget {
  int id;
  double weight;
  Widget *parent;
};

static Widget *make_widget(int id) { return new Widget{id, 1.0, nullptr}; }

int main(int argc, char **argv) {
  Widget *w = make_widget(1);
  int *ids = new int[10];
  if (argc > 1) {
    delete w;
    delete[] ids;
  }
  return 0;
}
// CHECK: mdebug: ERROR: memory leak in [[PROG:.*]] (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: mdebug: 64 bytes leaked in 2 blocks
// CHECK-NEXT: 40 bytes in 1 block:
// CHECK-NEXT:   allocated by operator new[] at {{.*}}leak_cpp.cpp:16:14 (main)
// CHECK-NEXT: +++ [[PROG]] leaked block of size 40 at 0x{{[0-9a-f]+}} (leak 1 of 2)
// CHECK-NEXT: 24 bytes in 1 block:
// CHECK-NEXT:   allocated by operator new at {{.*}}leak_cpp.cpp:12:45 (make_widget(int))
// CHECK-NEXT: +++ [[PROG]] leaked block of size 24 at 0x{{[0-9a-f]+}} (leak 2 of 2)
// CHECK-NEXT: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
// CHECK-NEXT: mdebug: SUMMARY: 0 errors, 64 bytes leaked in 2 blocks
// CLEAN-NOT: mdebug
