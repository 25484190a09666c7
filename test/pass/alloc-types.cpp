// Proves: in C++ the Clang front names the type of `new T` (T), `new T[n]` (T[]), `::new`, a class in a namespace as written, static_cast<T *>(malloc(...)), ::operator new(sizeof(T)), and, inside a template, the type of each instantiation (two instantiations share the call's location, not its function); a constructor's `new` is found in its complete and base variants; `new` of an incomplete-looking template parameter is never read from the template itself. The clean case: -fpass-plugin= alone names no type.
// RUN: %clangxx -fplugin=%mdebugpass -Rpass=mdebug -O0 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clangxx -fplugin=%mdebugpass -g -O2 -fno-inline -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clangxx -fpass-plugin=%mdebugpass -Rpass=mdebug -O0 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=NOFRONT
#include <new>
#include <stdlib.h>

namespace shapes {
struct circle {
  double r;
};
} // namespace shapes

template <class T> T *make() { return new T(); }

struct holder {
  int *v;
  holder() : v(new int[4]) {}
  ~holder() { delete[] v; }
};

// CHECK-DAG: @[[CIRCLE:__mdebug_str[.0-9]*]] = private unnamed_addr constant [15 x i8] c"shapes::circle\00"
// CHECK-DAG: @[[CIRCLES:__mdebug_str[.0-9]*]] = private unnamed_addr constant [17 x i8] c"shapes::circle[]\00"
// CHECK-DAG: @[[INT:__mdebug_str[.0-9]*]] = private unnamed_addr constant [4 x i8] c"int\00"
// CHECK-DAG: @[[INTS:__mdebug_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"int[]\00"
// CHECK-DAG: @[[DOUBLE:__mdebug_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"double\00"
// CHECK-DAG: @[[LONG:__mdebug_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"long\00"
// CHECK-DAG: @[[FMAKEI:__mdebug_str[.0-9]*]] = private unnamed_addr constant {{.*}} c"int* make<int>()\00"
// CHECK-DAG: @[[FMAKED:__mdebug_str[.0-9]*]] = private unnamed_addr constant {{.*}} c"double* make<double>()\00"
// CHECK-DAG: @[[FHOLDER:__mdebug_str[.0-9]*]] = private unnamed_addr constant {{.*}} c"holder::holder()\00"
int main() {
  shapes::circle *a = new shapes::circle;
  // CHECK-DAG: i32 [[#@LINE-1]], i32 23, i32 13, i32 0, {{.*}}@[[CIRCLE]]{{[,)]? ?.*}} }, section "mdebug_sites"
  shapes::circle *b = new shapes::circle[3];
  // CHECK-DAG: i32 [[#@LINE-1]], i32 23, i32 14, i32 0, {{.*}}@[[CIRCLES]]{{[,)]? ?.*}} }, section "mdebug_sites"
  using namespace shapes;
  circle *c = ::new circle;
  // CHECK-DAG: i32 [[#@LINE-1]], i32 15, i32 13, i32 0, {{.*}}@[[CIRCLE]]{{[,)]? ?.*}} }, section "mdebug_sites"
  long *d = static_cast<long *>(malloc(sizeof(long)));
  // CHECK-DAG: i32 [[#@LINE-1]], i32 33, i32 0, i32 0, {{.*}}@[[LONG]]{{[,)]? ?.*}} }, section "mdebug_sites"
  int *e = static_cast<int *>(::operator new(sizeof(int)));
  // CHECK-DAG: i32 [[#@LINE-1]], i32 31, i32 13, i32 0, {{.*}}@[[INT]]{{[,)]? ?.*}} }, section "mdebug_sites"
  int *f = make<int>();
  double *g = make<double>();
  // make<int> and make<double>: the same line and column, two functions.
  // CHECK-DAG: @[[FMAKEI]]{{.*}}, i32 14, i32 39, i32 13, i32 0, {{.*}}@[[INT]]{{[,)]? ?.*}} }, section "mdebug_sites"
  // CHECK-DAG: @[[FMAKED]]{{.*}}, i32 14, i32 39, i32 13, i32 0, {{.*}}@[[DOUBLE]]{{[,)]? ?.*}} }, section "mdebug_sites"
  // CHECK-DAG: @[[FHOLDER]]{{.*}}, i32 18, i32 16, i32 14, i32 0, {{.*}}@[[INTS]]{{[,)]? ?.*}} }, section "mdebug_sites"
  holder h;
  void *v = ::operator new(16);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 13, i32 13, i32 0, {{(ptr|i8\*)}} null }, section "mdebug_sites"
  ::operator delete(v);
  delete a;
  delete[] b;
  delete c;
  free(d);
  ::operator delete(e);
  delete f;
  delete g;
  return 0;
}

// NOFRONT-NOT: c"shapes::circle\00"
// NOFRONT: @__mdebug_site{{.*}} = private global
// NOFRONT-NOT: c"shapes::circle\00"
