// Proves: a block from plain new released with delete[] is reported as an
// alloc-dealloc mismatch naming operator new and operator delete[].
// RUN: %mdebug_clangxx -g -Wno-mismatched-new-delete %s -o %t
// RUN: %not %t 2>&1 | %FileCheck %s
// RUN: %t clean 2>&1 | %FileCheck %s --check-prefix=CLEAN --allow-empty
int main(int argc, char **argv) {
  double *value = new double(2.5);
  if (argc > 1)
    delete value;
  else
    delete[] value;
  return 0;
}
// CHECK: mdebug: ERROR: alloc-dealloc mismatch in {{.*}} (pid {{[0-9]+}}, tid {{[0-9]+}})
// CHECK-NEXT: +++ ALLOCATION 0x{{[0-9a-f]+}} SIZE 8 ALLOCATED BY operator new RELEASED BY operator delete[]
// CHECK-NEXT:   allocated by operator new at {{.*}}new_delete_array.cpp:7:19 (main)
// CHECK-NEXT:   released by operator delete[] at {{.*}}new_delete_array.cpp:11:5 (main)
// CHECK: mdebug: SUMMARY: 1 error (1 alloc-dealloc mismatch), 0 bytes leaked in 0 blocks
// CLEAN-NOT: mdebug
