// Proves: the access checks run at the end of clang's pipeline wherever the plugin runs, once the pass's option reaches it: with -fplugin= (loaded before clang reads -mllvm options) at -O0, -O2, -O3 and in -flto's pre-link step; with -fpass-plugin= when the plugin is also loaded early (-Xclang -load); in opt's default pipelines (-load, then -load-pass-plugin) and by name (-passes=mdebug-access). Without the option (the clean case) nothing is checked.
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -mllvm -mdebug-check-access -O0 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -mllvm -mdebug-check-access -O2 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -mllvm -mdebug-check-access -O3 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -mllvm -mdebug-check-access -O2 -flto -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fpass-plugin=%mdebugpass -Xclang -load -Xclang %mdebugpass -Rpass=mdebug -mllvm -mdebug-check-access -O2 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -O2 -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck %s --check-prefix=PLAIN < %t.ll
// RUN: %opt -load=%mdebugpass -load-pass-plugin=%mdebugpass -passes='default<O2>' -mdebug-check-access -S %t.ll | %FileCheck %s
// RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug-access -S %t.ll | %FileCheck %s

struct node {
  int value;
  struct node *next;
};

int sum(struct node *n) {
  int s = 0;
  for (; n; n = n->next)
    s += n->value;
  return s;
}

// CHECK-LABEL: define {{.*}}i32 @sum(
// CHECK: call preserve_mostcc <2 x i64> @__mdebug_access_miss(
// CHECK: call preserve_mostcc void @__mdebug_access_fail(
// CHECK: declare preserve_mostcc <2 x i64> @__mdebug_access_miss(
// PLAIN-LABEL: define {{.*}}i32 @sum(
// PLAIN-NOT: __mdebug_access
