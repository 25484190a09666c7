; Proves: allocation calls inside functions named __mdebug* (the runtime's own code) are left alone while other functions are rewritten.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck %s

define ptr @__mdebug_internal_alloc(i64 %n) {
; CHECK-LABEL: define ptr @__mdebug_internal_alloc(
; CHECK-NEXT: %p = call ptr @malloc(i64 %n)
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}

define void @__mdebugfree_all(ptr %p) {
; CHECK-LABEL: define void @__mdebugfree_all(
; CHECK-NEXT: call void @free(ptr %p)
  call void @free(ptr %p)
  ret void
}

define ptr @user(i64 %n) {
; CHECK-LABEL: define ptr @user(
; CHECK-NEXT: %p = call ptr @__mdebug_malloc(i64 %n, ptr @{{__mdebug_site[.0-9]*}})
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}

declare ptr @malloc(i64)
declare void @free(ptr)
