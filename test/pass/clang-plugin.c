// Proves: clang -fplugin= alone runs the pass (-O0, -O2, -flto pre-link), -fpass-plugin= does too, a malloc/free pair survives -O2, and -Rpass=mdebug gives sites a line and column without printing any remark; the last RUN is the clean case (no plugin: -O2 deletes the pair).
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -O2 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -O0 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -O2 -flto -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fpass-plugin=%mdebugpass -Rpass=mdebug -O2 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -O2 -S -emit-llvm %s -o /dev/null 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %clang -O2 -S -emit-llvm %s -o - | %FileCheck --check-prefix=PLAIN %s

// QUIET-NOT: remark
// QUIET-NOT: warning

typedef __SIZE_TYPE__ size_t;
void *malloc(size_t size);
void free(void *ptr);

// Typed (LLVM 14) and opaque pointers print the operands differently; the
// patterns accept both.
// CHECK-DAG: @[[FILE:__mdebug_str[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"{{.*}}clang-plugin.c\00"
// CHECK-DAG: @[[FUNC:__mdebug_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"pair\00"
void pair(void) {
  char *p = malloc(16);
  // CHECK-DAG: @[[MALLOC:__mdebug_site[.0-9]*]] = private global { i64, {{.*}} } { i64 {{-?[0-9]+}}, {{.*}}@[[FILE]], {{.*}}@[[FUNC]], {{.*}}i32 [[#@LINE-1]], i32 13, i32 0, i32 0, {{.*}} }, section "mdebug_sites", align 8
  p[0] = 1;
  free(p);
  // CHECK-DAG: @[[FREE:__mdebug_site[.0-9]*]] = private global { i64, {{.*}} } { i64 {{-?[0-9]+}}, {{.*}}@[[FILE]], {{.*}}@[[FUNC]], {{.*}}i32 [[#@LINE-1]], i32 3, i32 4, i32 0, {{(ptr|i8\*)}} null }, section "mdebug_sites", align 8
}

// CHECK: @llvm.global_ctors = {{.*}}@mdebug.module_ctor

// CHECK-LABEL: define {{.*}}void @pair()
// CHECK-NOT: call {{.*}}@malloc(
// CHECK: call {{.*}}@__mdebug_malloc(i64 noundef 16, {{.*}}@[[MALLOC]]{{[ )]}}
// CHECK-NOT: call {{.*}}@free(
// CHECK: call void @__mdebug_free({{.*}}@[[FREE]]{{[ )]}}

// CHECK: define internal void @mdebug.module_ctor()
// CHECK-NEXT: call void @__mdebug_version_mismatch_check_v7()

// PLAIN-LABEL: define {{.*}}void @pair()
// PLAIN-NEXT: ret void
