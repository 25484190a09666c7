// Proves: a void ** argument reaches __mdebug_posix_memalign (a pointer cast under LLVM 14's typed pointers) and its int result is kept; without -Rpass or -g the site still names the file and function, with line 0; the last RUN is the clean case.
// RUN: %clang -fplugin=%mdebugpass -O2 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -O2 -S -emit-llvm %s -o - | %FileCheck --check-prefix=PLAIN %s

typedef __SIZE_TYPE__ size_t;
int posix_memalign(void **memptr, size_t alignment, size_t size);

// CHECK-DAG: c"{{.*}}clang-posix-memalign.c\00"
// CHECK-DAG: c"get\00"
// CHECK-DAG: @[[SITE:__mdebug_site[.0-9]*]] = private global {{.*}}, i32 0, i32 0, i32 5, i32 0, {{(ptr|i8\*)}} null }, section "mdebug_sites"
void *get(size_t n) {
  void *p = 0;
  if (posix_memalign(&p, 64, n) != 0)
    return 0;
  return p;
}
// CHECK-LABEL: define {{.*}} @get(
// CHECK: %[[R:[0-9a-z.]+]] = call i32 @__mdebug_posix_memalign({{.*}}, i64 noundef 64, i64 noundef %{{.*}}, {{.*}}@[[SITE]]{{[ )]}}
// CHECK: icmp {{.*}}%[[R]]
// PLAIN-LABEL: define {{.*}} @get(
// PLAIN: call i32 @posix_memalign(
