; Proves: in a module that defines malloc itself (a user allocator), an indirect call of malloc's type is left alone: the pointer may be that allocator, which must still be called.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck --implicit-check-not=__mdebug --implicit-check-not=mdebug_sites --implicit-check-not=mdebug.module_ctor %s

define ptr @malloc(i64 %n) {
  ret ptr null
}

define ptr @use(ptr %f) {
; CHECK-LABEL: define ptr @use(
; CHECK-NEXT: %p = call ptr %f(i64 8)
  %p = call ptr %f(i64 8)
  ret ptr %p
}
