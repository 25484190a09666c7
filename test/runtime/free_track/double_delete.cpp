// Proves: deleting a C++ object twice is reported as a double free by
// operator delete, with the new, the first delete and the second delete.
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
struct Node {
  long value;
  Node *next;
};

int main(int argc, char **argv) {
  Node *n = new Node{1, nullptr};
  delete n;
  if (argc == 1)
    delete n;
  return 0;
}
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 16 DOUBLE FREE (operator delete)
// CHECK-NEXT:   allocated by operator new at {{.*}}double_delete.cpp:12:13 (main)
// CHECK-NEXT:   freed by operator delete at {{.*}}double_delete.cpp:13:3 (main)
// CHECK-NEXT:   freed again by operator delete at {{.*}}double_delete.cpp:15:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
