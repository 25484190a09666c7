; Proves: indirect calls are never rewritten, even if the pointer may hold malloc or free.
; RUN: %opt -load-pass-plugin=%mdebugpass -passes=mdebug -S %s | %FileCheck --implicit-check-not=__mdebug --implicit-check-not=mdebug_sites --implicit-check-not=mdebug.module_ctor %s

@hook = external global ptr

define ptr @use(ptr %f, i64 %n) {
; CHECK-LABEL: define ptr @use(
; CHECK-NEXT: %a = call ptr %f(i64 %n)
; CHECK-NEXT: %g = load ptr, ptr @hook
; CHECK-NEXT: call void %g(ptr %a)
  %a = call ptr %f(i64 %n)
  %g = load ptr, ptr @hook
  call void %g(ptr %a)
  ret ptr %a
}
