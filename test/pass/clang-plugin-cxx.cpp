// Proves: clang++ -fplugin= rewrites operator new/delete, including an invoke of operator new[] in a cleanup scope and the operator delete of a throwing constructor's landing pad, and names sites with the demangled C++ function, the same with -g and with -Rpass=mdebug; the last RUN is the clean case.
// RUN: %clangxx -fplugin=%mdebugpass -Rpass=mdebug -O2 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clangxx -fplugin=%mdebugpass -g -O2 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clangxx -O2 -S -emit-llvm %s -o - | %FileCheck --check-prefix=PLAIN %s

// CHECK-DAG: c"app::make()\00"
// CHECK-DAG: c"app::buf(unsigned long)\00"
// CHECK-DAG: c"app::drop(app::Widget*)\00"

namespace app {
struct Widget {
  Widget();
  int v;
};
struct Guard {
  ~Guard();
};

Widget *make() { return new Widget; }
// CHECK-LABEL: define {{.*}} @_ZN3app4makeEv()
// CHECK: call {{.*}}@__mdebug_new(i64 noundef 4,
// CHECK: invoke void @_ZN3app6WidgetC1Ev(
// CHECK: landingpad
// CHECK: call void @__mdebug_delete{{(_sized)?}}(
// PLAIN-LABEL: define {{.*}} @_ZN3app4makeEv()
// PLAIN: call {{.*}}@_Znwm(

int *buf(unsigned long n) {
  Guard g;
  return new int[n];
}
// CHECK-LABEL: define {{.*}} @_ZN3app3bufEm(
// CHECK: invoke {{.*}}@__mdebug_new_array(
// CHECK-NEXT: to label %{{.*}} unwind label %{{.*}}

void drop(Widget *w) { delete w; }
// CHECK-LABEL: define {{.*}} @_ZN3app4dropEPNS_6WidgetE(
// CHECK: call void @__mdebug_delete{{(_sized)?}}(
} // namespace app
