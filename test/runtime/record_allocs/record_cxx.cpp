// Proves: operator new and new[] are recorded as malloc, delete and
// delete[] as free, with the requested size.
// RUN: %mdebug_clangxx -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env MDEBUG_OPTIONS="record_allocs record_allocs_on_exit record_allocs_file=%t.d/rec" %t
// RUN: %python %S/../../Inputs/record_check.py --consistent %t.d/rec.* | %FileCheck %s
struct Big {
  char bytes[321];
};

int main() {
  Big *b = new Big;
  int *v = new int[25];
  delete b;
  delete[] v;
  return 0;
}
// CHECK: T1 malloc [[B:p[0-9]+]] 321
// CHECK-NEXT: T1 malloc [[V:p[0-9]+]] 100
// CHECK-NEXT: T1 free [[B]]
// CHECK-NEXT: T1 free [[V]]
// CHECK-NEXT: records:
