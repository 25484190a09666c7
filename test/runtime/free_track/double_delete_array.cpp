// Proves: delete[] twice on an array is a double free by operator delete[],
// with the new[], the first delete[] and the second delete[].
// (The element type has no destructor, so no array cookie: the same with
// one is cookie/double_delete.cpp.)
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
int main(int argc, char **argv) {
  int *items = new int[5];
  delete[] items;
  if (argc == 1)
    delete[] items;
  return 0;
}
// CHECK: mdebug: ERROR: double free in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 20 DOUBLE FREE (operator delete[])
// CHECK-NEXT:   allocated by operator new[] at {{.*}}double_delete_array.cpp:9:16 (main)
// CHECK-NEXT:   freed by operator delete[] at {{.*}}double_delete_array.cpp:10:3 (main)
// CHECK-NEXT:   freed again by operator delete[] at {{.*}}double_delete_array.cpp:12:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 double free), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
