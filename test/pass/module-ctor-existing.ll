; Proves: a module that already has mdebug.module_ctor (instrumented before, then linked with more code) gets its new calls rewritten but no second constructor.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck --implicit-check-not=mdebug.module_ctor %s

; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @mdebug.module_ctor, ptr null }]
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @mdebug.module_ctor, ptr null }]

; CHECK: define internal void @mdebug.module_ctor()
define internal void @mdebug.module_ctor() {
  call void @__mdebug_version_mismatch_check_v7()
  ret void
}

define ptr @late(i64 %n) {
; CHECK-LABEL: define ptr @late(
; CHECK-NEXT: call ptr @__mdebug_malloc(i64 %n, ptr @{{__mdebug_site[.0-9]*}})
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}

declare void @__mdebug_version_mismatch_check_v7()
declare ptr @malloc(i64)
