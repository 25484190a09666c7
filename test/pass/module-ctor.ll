; Proves: a module with rewrites gets one internal constructor, mdebug.module_ctor, at priority 1 in llvm.global_ctors after the existing ones, calling __mdebug_version_mismatch_check_v7 (so a runtime of another ABI fails to link).
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck --implicit-check-not=mdebug.module_ctor --implicit-check-not=__mdebug_version %s

; CHECK: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }, { i32, ptr, ptr } { i32 1, ptr @mdebug.module_ctor, ptr null }]
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]

define internal void @init() {
  ret void
}

define ptr @a(i64 %n) {
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}

define void @b(ptr %p) {
  call void @free(ptr %p)
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)

; CHECK: define internal void @mdebug.module_ctor() #[[ATTR:[0-9]+]] {
; CHECK-NEXT: call void @__mdebug_version_mismatch_check_v7()
; CHECK-NEXT: ret void
; CHECK-NEXT: }
; CHECK: declare void @__mdebug_version_mismatch_check_v7(){{$}}
; CHECK: attributes #[[ATTR]] = { nounwind }
